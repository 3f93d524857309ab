package preview

import (
	"image"
	"math"

	"snowtools/levelset/parallel"
)

// resolveRows is the number of rows a worker takes at a time.
const resolveRows = 4

// resolve shades the supersamples and box-filters each output pixel's
// supersample x supersample block: the mean of their display colours, encoded
// as sRGB. A block that sees only ground or only background is shaded once as
// a whole (the ground's grid lines are filtered analytically over the block),
// and so is one that sees only mesh at about one depth (see smoothMeshDepth),
// which saves most of the work on the large smooth areas. Each output pixel is
// computed alone, in a fixed order, so the picture does not depend on the
// workers.
func resolve(sh *shader, width, height, workers int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	ss := sh.supersample
	weight := 1 / float64(ss*ss)
	parallel.Ranges(workers, height, resolveRows, func(_, lo, hi int) {
		for oy := lo; oy < hi; oy++ {
			for ox := range width {
				x, y := ox*ss, oy*ss
				var c rgb
				switch sh.uniformBlock(x, y) {
				case -1:
					v := sh.view
					half := float64(ss) / 2
					c = sh.background(v.toWorld(v.rayCamera(float64(x)+half, float64(y)+half)).Unit())
				case groundID:
					c = sh.ground.shade(sh, x, y, ss)
				case firstMeshID:
					c = sh.meshSurface(triangleOf(sh.gbuf.id[(y+ss/2)*sh.gbuf.width+x+ss/2]), x, y, ss)
				default:
					for sy := range ss {
						for sx := range ss {
							c = c.add(sh.sample(x+sx, y+sy))
						}
					}
					c = c.scale(weight)
				}
				o := img.PixOffset(ox, oy)
				img.Pix[o+0], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = encode(c[0]), encode(c[1]), encode(c[2]), 255
			}
		}
	})
	return img
}

// uniformBlock returns -1 or groundID when every supersample of the output
// pixel whose first supersample is (x, y) sees the background or every one sees
// the ground, firstMeshID when every one sees the mesh within smoothMeshDepth
// (shaded once, with the triangle of the supersample at the pixel's centre),
// and 0 otherwise.
func (sh *shader) uniformBlock(x, y int) int32 {
	ss, buf := sh.supersample, sh.gbuf
	first := buf.id[y*buf.width+x]
	if first <= firstMeshID {
		return sh.smoothMeshBlock(x, y)
	}
	if first != -1 && first != groundID {
		return 0
	}
	for sy := range ss {
		for _, id := range buf.id[(y+sy)*buf.width+x : (y+sy)*buf.width+x+ss] {
			if id != first {
				return 0
			}
		}
	}
	return first
}

// smoothMeshBlock returns firstMeshID when every supersample of the block at
// (x, y) sees the mesh and their depths spread by at most smoothMeshDepth, and
// 0 otherwise.
func (sh *shader) smoothMeshBlock(x, y int) int32 {
	ss, buf := sh.supersample, sh.gbuf
	near, far := float32(math.Inf(1)), float32(0)
	for sy := range ss {
		row := (y+sy)*buf.width + x
		for k := row; k < row+ss; k++ {
			if buf.id[k] > firstMeshID {
				return 0
			}
			near, far = min(near, buf.depth[k]), max(far, buf.depth[k])
		}
	}
	if far-near > smoothMeshDepth*near {
		return 0
	}
	return firstMeshID
}
