package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/scene"
	"snowtools/formats/heightpng"
	"snowtools/formats/obj"
	"snowtools/formats/prt"
	"snowtools/levelset/geom"
	"snowtools/simcore/heightfield"
)

// The files of a ground scene, per frame: the spray as PRT, the ground as a mesh
// (PLY or OBJ) and as a 16-bit PNG height map.

// groundMesh returns the part of the ground the scene writes: the whole virtual
// grid, or only the columns the simulation created.
func groundMesh(g *scene.GroundScene, f *heightfield.Field) *geom.Mesh {
	if g.Touched {
		return f.Mesh()
	}
	return f.GridMesh(g.Config.Extent)
}

// writeMeshFile writes frame f's mesh m (nil: an empty one) to the scene's file
// pattern, as PLY or OBJ by its extension, in the axes and unit of [output] up and
// scale; what names it in the header comment, with the frame and its time.
func writeMeshFile(sc *scene.Scene, pattern string, f int, t float64, m *geom.Mesh, what string) error {
	if m == nil {
		m = &geom.Mesh{}
	}
	m = sc.MeshAxes.Written(m)
	comment := meshfile.FrameComment{What: "snowsim " + what, Frame: f, Time: t, Axes: sc.MeshAxes}.String()
	return writeFrameFile(sc.OutDir, pattern, f, func(w io.Writer) error {
		if strings.ToLower(filepath.Ext(pattern)) == ".obj" {
			return obj.Write(w, m, comment)
		}
		return meshfile.WritePLY(w, m, comment)
	})
}

// writeHeightMap writes the heights of the columns in r as a 16-bit PNG height map
// over [low, high], with its mapping to the world.
func writeHeightMap(w io.Writer, g *scene.GroundScene, f *heightfield.Field, r heightfield.Rect) error {
	m := &heightpng.Map{Width: r.I1 - r.I0, Height: r.J1 - r.J0, Cell: g.Config.Cell,
		OriginX: g.Config.X(r.I0), OriginZ: g.Config.Z(r.J0)}
	if err := m.Quantize(f.Heights(r), g.Low, g.High); err != nil {
		return err
	}
	return heightpng.Write(w, m)
}

// writeSpray writes the airborne spray as one PRT frame: Position, Velocity and ID,
// with the grid's cell as GridSpacing. The ID is int32, as the snow's is, so that
// every frame and every file export makes of it carries one ID type (PLY has no
// 64-bit integer, and Houdini's id is an int32); the spray counts its particles in a
// uint64, and a frame with an ID beyond int32 is refused rather than wrapped.
func writeSpray(w io.Writer, p *heightfield.Particles, info frameInfo) error {
	n := p.Len()
	if err := checkSprayIDs(p.ID, info.Frame); err != nil {
		return err
	}
	var bounds [6]float32
	if n > 0 {
		lo, hi := p.Pos[0], p.Pos[0]
		for _, x := range p.Pos {
			lo, hi = lo.Min(x), hi.Max(x)
		}
		bounds = [6]float32{float32(lo[0]), float32(lo[1]), float32(lo[2]), float32(hi[0]), float32(hi[1]), float32(hi[2])}
	}
	var h prt.Header
	position := h.AddChannel("Position", prt.Float32, 3)
	velocity := h.AddChannel("Velocity", prt.Float32, 3)
	id := h.AddChannel("ID", prt.Int32, 1)
	h.Count = int64(n)
	h.Meta = frameMeta(info, bounds)
	pw, err := prt.NewWriter(w, h)
	if err != nil {
		return err
	}
	rec := make([]byte, h.ParticleSize())
	for i := range n {
		x, v := p.Pos[i], p.Vel[i]
		position.PutFloat32s(rec, float32(x[0]), float32(x[1]), float32(x[2]))
		velocity.PutFloat32s(rec, float32(v[0]), float32(v[1]), float32(v[2]))
		id.PutInt32s(rec, int32(p.ID[i]))
		if err := pw.WriteParticle(rec); err != nil {
			return err
		}
	}
	return pw.Close()
}

// An idOverflowError is a spray particle whose ID does not fit the int32 that frames
// store IDs as: the run created more than 2^31 - 1 spray particles.
type idOverflowError struct {
	Frame    int
	Particle int
	ID       uint64
}

func (e *idOverflowError) Error() string {
	return fmt.Sprintf("frame %d: spray particle %d has ID %d, beyond the int32 that frames store IDs as (at most %d)",
		e.Frame, e.Particle, e.ID, math.MaxInt32)
}

// checkSprayIDs returns an *idOverflowError for the first ID of frame that does not fit
// an int32.
func checkSprayIDs(ids []uint64, frame int) error {
	for i, id := range ids {
		if id > math.MaxInt32 {
			return &idOverflowError{Frame: frame, Particle: i, ID: id}
		}
	}
	return nil
}
