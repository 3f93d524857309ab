package preview

import (
	"image/color"
	"math"
)

// rgb is a linear-light colour: radiance before tone mapping, display light
// (0 to 1) after it.
type rgb [3]float64

func (a rgb) add(b rgb) rgb       { return rgb{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a rgb) mul(b rgb) rgb       { return rgb{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }
func (a rgb) scale(s float64) rgb { return rgb{a[0] * s, a[1] * s, a[2] * s} }

// lerp returns (1 - t) a + t b.
func lerp(a, b rgb, t float64) rgb { return a.scale(1 - t).add(b.scale(t)) }

// srgbToLinear decodes one sRGB-encoded channel (0 to 1) to linear light:
// c/12.92 below 0.04045, ((c + 0.055)/1.055)^2.4 above.
func srgbToLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// linearToSRGB encodes linear light (0 to 1) as sRGB: 12.92 c below 0.0031308,
// 1.055 c^(1/2.4) - 0.055 above.
func linearToSRGB(c float64) float64 {
	if c <= 0.0031308 {
		return 12.92 * c
	}
	return 1.055*math.Pow(c, 1/2.4) - 0.055
}

// byteToLinear maps an sRGB byte to linear light.
var byteToLinear = func() (t [256]float64) {
	for i := range t {
		t[i] = srgbToLinear(float64(i) / 255)
	}
	return t
}()

// encodeSteps is the resolution of the table that encodes linear light as
// sRGB bytes; 4096 steps resolve the darkest byte values.
const encodeSteps = 4096

var linearToByte = func() (t [encodeSteps + 1]uint8) {
	for i := range t {
		t[i] = uint8(math.Round(255 * linearToSRGB(float64(i)/encodeSteps)))
	}
	return t
}()

// encode returns the sRGB byte for display light c, clamped to [0, 1].
func encode(c float64) uint8 {
	return linearToByte[int(math.Round(min(max(c, 0), 1)*encodeSteps))]
}

// linearOf returns the linear colour of an sRGB colour.
func linearOf(c color.Color) rgb {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return rgb{byteToLinear[n.R], byteToLinear[n.G], byteToLinear[n.B]}
}

// exposure scales radiance before tone mapping.
const exposure = 0.95

// toneMap maps radiance to display light with Narkowicz's fit of the ACES
// filmic curve, x (2.51 x + 0.03) / (x (2.43 x + 0.59) + 0.14): linear in the
// shadows, a shoulder that rolls highlights off towards 1 instead of clipping
// them, so sunlit snow stays white but keeps its shading.
func toneMap(c rgb) rgb {
	for k, x := range c {
		x *= exposure
		c[k] = min(1, x*(2.51*x+0.03)/(x*(2.43*x+0.59)+0.14))
	}
	return c
}
