package scene

import (
	"fmt"
	"strings"

	"snowtools/levelset/geom"
	"snowtools/simcore"
)

// snowVolumes loads the [[snow]] tables: where the snow is, of which material, how
// it is seeded and how it moves. Every volume must lie inside the domain.
func (l *loader) snowVolumes(tables []snowKeys, materials map[string]simcore.Material, domain geom.Box) ([]simcore.Source, error) {
	if len(tables) == 0 {
		return nil, keyError("snow", "the scene has no [[snow]] volume")
	}
	var srcs []simcore.Source
	for i := range tables {
		sk := &tables[i]
		key := fmt.Sprintf("snow[%d]", i+1)
		var shape geom.Shape
		var bounds geom.Box
		var err error
		switch sk.Shape {
		case "mesh", "vdb":
			shape, bounds, err = l.snowFromFile(&sk.shapeKeys, key)
		case "plane":
			err = keyError(key+".shape", "%q: a snow volume is a \"sphere\", \"box\", \"cylinder\", \"mesh\" or \"vdb\"", sk.Shape)
		default:
			shape, bounds, err = sk.analytic(key)
		}
		if err != nil {
			return nil, err
		}
		if outside(bounds, domain) {
			return nil, keyError(key, "the %s from %v to %v reaches outside the domain %v to %v",
				sk.Shape, bounds.Min, bounds.Max, domain.Min, domain.Max)
		}
		src, err := sk.source(key, uint64(i+1), materials)
		if err != nil {
			return nil, err
		}
		src.Shape, src.Bounds, src.Center = shape, bounds, bounds.Min.Add(bounds.Max).Scale(0.5)
		srcs = append(srcs, src)
	}
	return srcs, nil
}

// outside reports whether b reaches outside the domain on some axis.
func outside(b, domain geom.Box) bool {
	for a := 0; a < 3; a++ {
		if b.Min[a] < domain.Min[a] || b.Max[a] > domain.Max[a] {
			return true
		}
	}
	return false
}

// source loads what a snow volume says besides its shape; seed is its default seed.
func (sk *snowKeys) source(key string, seed uint64, materials map[string]simcore.Material) (simcore.Source, error) {
	src := simcore.Source{Material: simcore.DefaultMaterial, PerCell: 8, Seed: seed}
	if sk.Material != nil {
		m, ok := materials[*sk.Material]
		if !ok {
			return src, keyError(key+".material", "%q is not defined (define [materials.%s] or use a preset: %s)",
				*sk.Material, *sk.Material, strings.Join(simcore.PresetNames(), ", "))
		}
		src.Material = m
	}
	if sk.Pattern != nil {
		src.Pattern = simcore.Pattern(*sk.Pattern)
		if err := src.Pattern.Validate(); err != nil {
			return src, keyError(key+".pattern", "%v", err)
		}
	}
	set(&src.PerCell, sk.ParticlesPerCell)
	// The solver takes more; past 64 a cell's particles only cost time.
	if src.PerCell < 1 || src.PerCell > 64 {
		return src, keyError(key+".particles_per_cell", "%d: must be in [1, 64] (the paper uses 4-10)", src.PerCell)
	}
	if sk.Seed != nil {
		src.Seed = uint64(*sk.Seed)
	}
	set(&src.Velocity, sk.Velocity)
	set(&src.Spin, sk.Spin)
	if !src.Velocity.IsFinite() || !src.Spin.IsFinite() {
		return src, keyError(key, "velocity and spin must be finite")
	}
	src.Variation = sk.variation(src.Seed)
	return src, atKey(src.Variation.ValidateFor(src.Material), under(key))
}

// variation reads the section 10 keys of a snow volume: noise-varied stiffness and
// critical stretch, a harder shell, and chunks with weak seams between them. The
// noise seed (which also seeds the chunks) defaults to the volume's seed; chunk_size
// alone brings the measured seams and factors (simcore.Variation.SetChunks).
func (sk *snowKeys) variation(seed uint64) simcore.Variation {
	v := simcore.Variation{NoiseSeed: seed}
	set(&v.NoiseScale, sk.NoiseScale)
	if sk.NoiseSeed != nil {
		v.NoiseSeed = uint64(*sk.NoiseSeed)
	}
	set(&v.StiffnessNoise, sk.StiffnessNoise)
	set(&v.StretchNoise, sk.StretchNoise)
	set(&v.ShellThickness, sk.ShellThickness)
	set(&v.ShellStiffness, sk.ShellStiffness)
	set(&v.ShellDensity, sk.ShellDensity)
	if sk.ChunkSize != nil && *sk.ChunkSize != 0 {
		v.SetChunks(*sk.ChunkSize) // the measured seams and factors, unless set below
	}
	set(&v.SeamWidth, sk.SeamWidth)
	set(&v.ChunkStrength, sk.ChunkStrength)
	set(&v.SeamStrength, sk.SeamStrength)
	set(&v.ChunkStiffness, sk.ChunkStiffness)
	set(&v.SeamStiffness, sk.SeamStiffness)
	return v
}
