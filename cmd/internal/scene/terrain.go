package scene

import (
	"math"

	"snowtools/formats/heightpng"
	"snowtools/formats/input"
	"snowtools/simcore/heightfield"
)

// terrain returns the ground's initial surface: a height map, noise, or flat.
func (l *loader) terrain(k *groundKeys) (heightfield.Terrain, error) {
	base := 0.0
	set(&base, k.Height)
	switch {
	case k.HeightMap != nil && (k.Noise != nil || k.Height != nil):
		return nil, keyError("ground", "give height_map, or height and noise, not both")
	case k.HeightMap != nil:
		return l.heightMap(k.HeightMap)
	case k.Noise != nil:
		n := heightfield.Noise{Base: base, Amplitude: 0.005, Scale: 0.1, Octaves: 1, Seed: 1}
		set(&n.Amplitude, k.Noise.Amplitude)
		set(&n.Scale, k.Noise.Scale)
		set(&n.Octaves, k.Noise.Octaves)
		if k.Noise.Seed != nil {
			n.Seed = uint64(*k.Noise.Seed)
		}
		if err := n.Validate(); err != nil {
			return nil, keyError("ground.noise", "%v", err)
		}
		return n, nil
	}
	if math.IsNaN(base) || math.IsInf(base, 0) {
		return nil, keyError("ground.height", "%g: must be finite", base)
	}
	return heightfield.Flat(base), nil
}

// heightMap reads a height map, with the mapping to the world it carries or the one
// the keys give.
func (l *loader) heightMap(k *heightMapKeys) (*heightfield.HeightMap, error) {
	if k.Path == "" {
		return nil, keyError("ground.height_map.path", "required")
	}
	path := l.path(k.Path)
	f, err := input.Open(path)
	if err != nil {
		return nil, keyError("ground.height_map.path", "%v", err)
	}
	defer f.Close()
	m, err := heightpng.Read(f)
	if err != nil {
		return nil, keyError("ground.height_map.path", "%s: %v", path, err)
	}
	if !m.HasMapping && (k.Min == nil || k.Cell == nil || k.Range == nil) {
		return nil, keyError("ground.height_map", "%s carries no mapping to the world (snowsim did not write it): give min, cell and range", path)
	}
	if k.Min != nil {
		m.OriginX, m.OriginZ = k.Min[0], k.Min[1]
	}
	set(&m.Cell, k.Cell)
	if k.Range != nil {
		m.Low, m.High = k.Range[0], k.Range[1]
	}
	if err := m.Validate(); err != nil {
		return nil, keyError("ground.height_map", "%s: %v", path, err)
	}
	hm := &heightfield.HeightMap{Width: m.Width, Depth: m.Height, Heights: m.Heights(),
		OriginX: m.OriginX, OriginZ: m.OriginZ, Cell: m.Cell}
	if err := hm.Validate(); err != nil {
		return nil, keyError("ground.height_map", "%s: %v", path, err)
	}
	return hm, nil
}
