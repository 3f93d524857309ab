package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"snowtools/cmd/internal/cli"
	"snowtools/levelset/geom"
	"snowtools/simcore/heightfield"
)

// simulateGround runs a ground scene and writes every frame: the spray (PRT), the
// ground mesh and its height map. Ground scenes are quick and keep no checkpoints.
func simulateGround(sc *Scene, opts runOptions, log io.Writer) error {
	if opts.resume {
		return errors.New("-resume: ground scenes write no checkpoints (a ground scene runs in seconds to minutes): run it again")
	}
	g := sc.Ground
	sim, err := heightfield.New(g.Config)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(sc.OutDir, 0o755); err != nil {
		return err
	}
	var pv *previewer
	if opts.preview {
		pv = newGroundPreviewer(sc)
	}
	write := func(frame int) error {
		info := frameInfo{Frame: frame, Time: sim.Time, FPS: sc.FPS, H: g.Config.Cell}
		path := filepath.Join(sc.OutDir, frameName(sc.Pattern, frame))
		if err := cli.WriteFileAtomic(path, func(w io.Writer) error { return writeSpray(wrapOutput(path, w), &sim.P, info) }); err != nil {
			return err
		}
		var mesh *geom.Mesh
		if g.Mesh != "" || pv != nil {
			mesh = groundMesh(g, sim.Field())
		}
		if pv != nil {
			if err := pv.render(frame, sim.P.Pos, mesh); err != nil {
				return err
			}
		}
		if g.Mesh != "" {
			path := filepath.Join(sc.OutDir, frameName(g.Mesh, frame))
			writeMesh := writeMeshPLY
			if strings.HasSuffix(g.Mesh, ".obj") {
				writeMesh = writeMeshOBJ
			}
			if err := cli.WriteFileAtomic(path, func(w io.Writer) error { return writeMesh(wrapOutput(path, w), mesh) }); err != nil {
				return err
			}
		}
		if g.HeightMap != "" {
			r := g.Config.Extent
			if g.Touched {
				r = sim.Field().Stored()
			}
			if !r.Empty() {
				path := filepath.Join(sc.OutDir, frameName(g.HeightMap, frame))
				if err := cli.WriteFileAtomic(path, func(w io.Writer) error { return writeHeightMap(wrapOutput(path, w), g, sim.Field(), r) }); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := write(0); err != nil {
		return err
	}
	e := g.Config.Extent
	fmt.Fprintf(log, "snowsim: ground of %s, %d x %d columns of %g m (%s), frames 1-%d at %g fps -> %s\n",
		materialName(g.Config.Material), e.I1-e.I0, e.J1-e.J0, g.Config.Cell, sc.OutDir, sc.Frames, sc.FPS, filepath.Join(sc.OutDir, sc.Pattern))
	progress := cli.NewProgress(log)
	start := time.Now()
	for f := 1; f <= sc.Frames; f++ {
		if _, err := advanceTo(&sim.Time, sim.Advance, sc.Sequences, float64(f)/sc.FPS); err != nil {
			progress.Done()
			return fmt.Errorf("frame %d: %v (frames 0-%d are written and valid)", f, err, f-1)
		}
		if err := write(f); err != nil {
			progress.Done()
			return fmt.Errorf("frame %d: %v", f, err)
		}
		st := sim.Stats()
		elapsed := time.Since(start)
		progress.Update(fmt.Sprintf("frame %d/%d  t = %.3f s  %d steps  %d active columns  %d stored  %d spray  elapsed %s",
			f, sc.Frames, sim.Time, st.Steps, st.ActiveColumns, sim.Field().StoredColumns(), sim.P.Len(), cli.Duration(elapsed)))
	}
	progress.Done()
	st := sim.Stats()
	wall := time.Since(start).Seconds()
	fmt.Fprintf(log, "snowsim: %d frames in %.1f s (%.2g s/step); pushed %.3g m^3, compressed %.3g m^3, %d spray particles landed; %d columns stored (%.1f MB)\n",
		sc.Frames, wall, wall/float64(max(st.Steps, 1)), st.Pushed, st.Compressed, st.Landed, sim.Field().StoredColumns(), float64(sim.Field().MemoryBytes())/1e6)
	if st.PassLimitHits > 0 {
		fmt.Fprintf(log, "snowsim: warning: erosion stopped at its limit of passes %d times: slopes steeper than liquidity remain; lower dt or raise roughness\n", st.PassLimitHits)
	}
	return nil
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
