package vdb

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"snowtools/formats/vdb/blosc"
	"snowtools/levelset"
	"snowtools/levelset/geom"
)

func TestRoundTrip(t *testing.T) {
	for _, half := range []bool{false, true} {
		want := testFile(half)
		for _, o := range writeOptions() {
			label := fmt.Sprintf("%s half=%v", o.label(), half)
			data := encodeWith(t, want, o)
			got, err := Read(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			if got.Version != FileVersion || len(got.Grids) != len(want.Grids) {
				t.Fatalf("%s: version %d, %d grids", label, got.Version, len(got.Grids))
			}
			if got.Meta["creator"] != "vdb tests" || got.Meta["frame"] != int32(12) {
				t.Errorf("%s: file metadata %v", label, got.Meta)
			}
			for i, w := range want.Grids {
				g := got.Grids[i]
				if g.Name != w.Name || g.Half != half || g.VectorType != w.VectorType {
					t.Errorf("%s: grid %d is %q half=%v vector type %q", label, i, g.Name, g.Half, g.VectorType)
				}
				if w.Class != "" && g.Class != w.Class || w.Class == "" && g.Class != UnknownClass {
					t.Errorf("%s: grid %q class %q, want %q", label, g.Name, g.Class, w.Class)
				}
				if fmt.Sprint(g.Meta) != fmt.Sprint(w.Meta) && !(len(g.Meta) == 0 && len(w.Meta) == 0) {
					t.Errorf("%s: grid %q metadata %v, want %v", label, g.Name, g.Meta, w.Meta)
				}
				if w.Float != nil {
					expectSameGrid(t, label+" "+w.Name, w.Float, g.Float, half)
				} else {
					expectSameGrid(t, label+" "+w.Name, w.Vec3, g.Vec3, half)
				}
			}
		}
	}
}

// Writing the same grids twice gives the same bytes, UUID included.
func TestWriteIsDeterministic(t *testing.T) {
	a := encode(t, testFile(false), ZIP|ActiveMask)
	b := encode(t, testFile(false), ZIP|ActiveMask)
	if !bytes.Equal(a, b) {
		t.Fatal("two writes of the same grids differ")
	}
}

// Encode then WriteTo gives Write's bytes, counted, and the bytes do not change
// when the grids change after Encode.
func TestEncodeThenWrite(t *testing.T) {
	f := testFile(false)
	want := encode(t, f, ZIP|ActiveMask)
	e, err := Encode(f, &Options{Compression: ZIP | ActiveMask})
	if err != nil {
		t.Fatal(err)
	}
	f.Grids[0].Float.Set(levelset.Coord{1000, 0, 0}, 1)
	var buf bytes.Buffer
	n, err := e.WriteTo(&buf)
	if err != nil || n != int64(buf.Len()) || !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("WriteTo: %d bytes (counted %d), error %v; same as Write: %v", buf.Len(), n, err, bytes.Equal(buf.Bytes(), want))
	}
}

// The leaf buffers are compressed in parallel chunks: any thread count gives the
// same bytes, for every compression, in full and half precision, for a band of
// about 900 leaves (28 chunks) in a scalar and a vector grid.
func TestWriteSameBytesOnAnyThreads(t *testing.T) {
	const radius = 40.0 // voxels
	surface := levelset.NewGrid(levelset.Transform{VoxelSize: 0.01}, float32(0.03))
	normal := levelset.NewGrid(levelset.Transform{VoxelSize: 0.01}, levelset.Vec3f{})
	for i := int32(-44); i <= 44; i++ {
		for j := int32(-44); j <= 44; j++ {
			for k := int32(-44); k <= 44; k++ {
				p := geom.Vec3{float64(i), float64(j), float64(k)}
				if d := p.Norm() - radius; math.Abs(d) < 3 {
					surface.Set(levelset.Coord{i, j, k}, float32(d*0.01))
					normal.Set(levelset.Coord{i, j, k}, levelset.Vec3fOf(p.Unit()))
				}
			}
		}
	}
	for _, comp := range compressions {
		for _, half := range []bool{false, true} {
			f := &File{Grids: []*Grid{
				{Name: "surface", Class: LevelSet, Half: half, Float: surface},
				{Name: "normal", Half: half, Vec3: normal},
			}}
			var want []byte
			for _, threads := range []int{0, 1, 2, 5} {
				var buf bytes.Buffer
				if err := Write(&buf, f, &Options{Compression: comp, Threads: threads}); err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = buf.Bytes()
				} else if !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("compression %v, half %v: %d threads write other bytes than one", comp, half, threads)
				}
			}
		}
	}
}

// The inactive values of each test leaf take the code that OpenVDB's MaskCompress
// gives them, and come back.
func TestInactiveValueCodes(t *testing.T) {
	bg := float32(0.5)
	cases := []struct {
		inactive []float32
		code     byte
	}{
		{nil, inactiveAreBackground},
		{[]float32{0.5}, inactiveAreBackground},
		{[]float32{-0.5}, inactiveAreMinusBackground},
		{[]float32{7}, inactiveAreOneValue},
		{[]float32{-0.5, 0.5}, inactiveArePlusMinusBg},
		{[]float32{0.5, -0.5}, inactiveArePlusMinusBg},
		{[]float32{7, 0.5}, inactiveAreBgAndOneValue},
		{[]float32{0.5, 7}, inactiveAreBgAndOneValue},
		{[]float32{7, 9}, inactiveAreTwoValues},
		{[]float32{7, 9, 0.5}, allValuesStored},
	}
	for _, c := range cases {
		vals := make([]float32, 64)
		valueMask, childMask := make(nodeMask, 1), make(nodeMask, 1)
		for i := range vals {
			if len(c.inactive) == 0 || i%2 == 0 {
				valueMask.set(i)
				vals[i] = float32(i)
			} else {
				vals[i] = c.inactive[(i/2)%len(c.inactive)]
			}
		}
		code, inactive := classifyInactive(vals, valueMask, childMask, bg)
		if code != c.code {
			t.Errorf("inactive %v: code %d, want %d", c.inactive, code, c.code)
		}
		// The rebuild rule of the reader gives every inactive value back.
		if code == inactiveAreOneValue || code == inactiveAreBgAndOneValue || code == inactiveAreTwoValues {
			continue // the stored values are what classifyInactive returned; checked by TestRoundTrip
		}
		v0 := negative(bg)
		if code == inactiveAreBackground {
			v0 = bg
		}
		for i, v := range vals {
			if valueMask.isOn(i) || code == allValuesStored {
				continue
			}
			rebuilt := v0
			if code == inactiveArePlusMinusBg && v == inactive[1] {
				rebuilt = bg
			}
			if rebuilt != v {
				t.Errorf("inactive %v: slot %d rebuilt as %v, want %v", c.inactive, i, rebuilt, v)
			}
		}
	}
}

func TestWriteRejects(t *testing.T) {
	f := testFile(false)
	dup := &File{Grids: []*Grid{f.Grids[0], f.Grids[0]}}
	if err := Write(&bytes.Buffer{}, dup, nil); err == nil {
		t.Error("two grids of one name: no error")
	}
	none := &File{Grids: []*Grid{{Name: "empty"}}}
	if err := Write(&bytes.Buffer{}, none, nil); err == nil {
		t.Error("grid without voxels: no error")
	}
	badMeta := &File{Meta: Metadata{"x": []int{1}}}
	if err := Write(&bytes.Buffer{}, badMeta, nil); err == nil {
		t.Error("metadata of type []int: no error")
	}
	if err := Write(&bytes.Buffer{}, f, &Options{Compression: Blosc | ZIP}); err == nil {
		t.Error("Blosc and ZIP: no error")
	}
	if err := Write(&bytes.Buffer{}, f, &Options{Compression: Blosc, BloscCodec: blosc.Zstd}); err == nil {
		t.Error("Blosc with zstd: no error")
	}
	if err := Write(&bytes.Buffer{}, f, &Options{Compression: 0x8}); err == nil {
		t.Error("unknown compression flag: no error")
	}
}
