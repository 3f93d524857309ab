package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/scene"
	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
	"snowtools/simcore/heightfield"
)

// simulateGround runs a ground scene and writes every frame: the spray (PRT), the
// ground mesh and its height map. Ground scenes are quick and keep no checkpoints.
func simulateGround(sc *scene.Scene, opts runOptions, log io.Writer) error {
	if opts.resume {
		return errors.New("-resume: ground scenes write no checkpoints (a ground scene runs in seconds to minutes): run it again")
	}
	g := sc.Ground
	sim, err := heightfield.New(g.Config)
	if err != nil {
		return err
	}
	if err := removeStaleFrames(sc, opts.preview, log); err != nil {
		return err
	}
	r := &groundRun{sc: sc, sim: sim}
	if opts.preview {
		r.pv = newGroundPreviewer(sc)
	}
	if r.cols, err = newColliderOutput(sc, opts.preview); err != nil {
		return err
	}
	sim.Time = float64(sc.Start) / sc.FPS
	if err := r.write(sc.Start); err != nil {
		return err
	}
	e := g.Config.Extent
	fmt.Fprintf(log, "snowsim: ground of %s, %d x %d columns of %g m (%s), frames %d-%d at %g fps -> %s\n",
		materialName(g.Config.Material), e.I1-e.I0, e.J1-e.J0, g.Config.Cell, sc.OutDir, sc.Start+1, sc.Last(), sc.FPS, filepath.Join(sc.OutDir, sc.Pattern))
	start := time.Now()
	if err := r.frames(log); err != nil {
		return err
	}
	st := sim.Stats()
	wall := time.Since(start).Seconds()
	fmt.Fprintf(log, "snowsim: %d frames in %.1f s (%.2g s/step); pushed %.3g m^3, compressed %.3g m^3, %d spray particles landed; %d columns stored (%.1f MB)\n",
		sc.Frames, wall, wall/float64(max(st.Steps, 1)), st.Pushed, st.Compressed, st.Landed, sim.Field().StoredColumns(), float64(sim.Field().MemoryBytes())/1e6)
	if st.PassLimitHits > 0 {
		fmt.Fprintf(log, "snowsim: warning: erosion stopped at its limit of passes %d times: slopes steeper than liquidity remain; lower dt or raise roughness\n", st.PassLimitHits)
	}
	return nil
}

// groundRun is a ground simulation on its way through a scene's frames.
type groundRun struct {
	sc   *scene.Scene
	sim  *heightfield.Sim
	pv   *previewer      // nil without -preview
	cols *colliderOutput // nil when neither the preview nor the scene wants the colliders' meshes
}

// frames simulates and writes the frames after the first, reporting progress.
func (r *groundRun) frames(log io.Writer) error {
	sc, sim := r.sc, r.sim
	progress := cli.NewProgress(log)
	defer progress.Done()
	start := time.Now()
	for f := sc.Start + 1; f <= sc.Last(); f++ {
		if _, err := collider.AdvanceTo(&sim.Time, sim.Advance, sc.Sequences, float64(f)/sc.FPS); err != nil {
			return fmt.Errorf("frame %d: %v (frames %d-%d are written and valid)", f, err, sc.Start, f-1)
		}
		if err := r.write(f); err != nil {
			return fmt.Errorf("frame %d: %v", f, err)
		}
		st := sim.Stats()
		elapsed := time.Since(start)
		progress.Update(fmt.Sprintf("frame %d/%d  t = %.3f s  %d steps  %d active columns  %d stored  %d spray  elapsed %s",
			f, sc.Last(), sim.Time, st.Steps, st.ActiveColumns, sim.Field().StoredColumns(), sim.P.Len(), cli.Duration(elapsed)))
	}
	return nil
}

// write writes frame f's files: the spray, the ground mesh and height map and the
// colliders when the scene asks for them, and the picture with -preview.
func (r *groundRun) write(frame int) error {
	sc, g, sim := r.sc, r.sc.Ground, r.sim
	info := frameInfo{Frame: frame, Time: sim.Time, FPS: sc.FPS, H: g.Config.Cell}
	if err := writeFrameFile(sc.OutDir, sc.Pattern, frame, func(w io.Writer) error { return writeSpray(w, &sim.P, info) }); err != nil {
		return err
	}
	var mesh *geom.Mesh
	if g.Mesh != "" || r.pv != nil {
		mesh = groundMesh(g, sim.Field())
	}
	cols, err := r.cols.frame(frame, sim.Time)
	if err != nil {
		return err
	}
	if r.pv != nil {
		if err := r.pv.render(frame, sim.P.Pos, mesh, cols); err != nil {
			return err
		}
	}
	if g.Mesh != "" {
		if err := writeMeshFile(sc, g.Mesh, frame, sim.Time, mesh, "ground"); err != nil {
			return err
		}
	}
	if g.HeightMap == "" {
		return nil
	}
	area := g.Config.Extent
	if g.Touched {
		area = sim.Field().Stored()
	}
	if area.Empty() {
		return nil
	}
	return writeFrameFile(sc.OutDir, g.HeightMap, frame, func(w io.Writer) error { return writeHeightMap(w, g, sim.Field(), area) })
}

// materialName names a ground material by its preset, or "custom".
func materialName(m heightfield.Material) string {
	for _, n := range heightfield.PresetNames() {
		if p, _ := heightfield.Preset(n); p == m {
			return n
		}
	}
	return "a custom material"
}
