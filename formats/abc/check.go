package abc

// Check reads the whole archive as a reader that uses every part of it would: every
// object and compound property, every stored sample of every property (each distinct
// data block once per type, so that a file whose properties share one block many
// times costs no more than reading each once), every Xform's ops and every sample of
// every Xform and mesh schema. It returns the first error. It is the oracle of the
// damaged-archive and fuzz tests: on any input it must return nil or a *FormatError,
// within bounded time and memory, and an archive it accepts must read through the
// schema API (meshes, world matrices). The tools do not call it: they read only the
// objects they use, and report those objects' errors. Memory follows one sample.
func (a *Archive) Check() error {
	seen := map[checkedBlock]bool{}
	return a.top.Walk(func(o *Object) error {
		props, err := o.Properties()
		if err != nil {
			return err
		}
		if err := a.checkCompound(props, seen); err != nil {
			return err
		}
		switch {
		case o.IsXform():
			x, err := o.Xform()
			if err != nil {
				return err
			}
			for _, i := range checkedIndices(x.NumSamples()) {
				if _, _, err := x.Sample(i); err != nil {
					return err
				}
			}
		case o.IsPolyMesh():
			m, err := o.PolyMesh()
			if err != nil {
				return err
			}
			for _, i := range checkedIndices(m.NumSamples()) {
				if _, err := m.Read(i); err != nil {
					return err
				}
			}
		}
		if _, err := o.Visibility(0); err != nil {
			return err
		}
		return nil
	})
}

// checkedBlock is a data block read as samples of one data type.
type checkedBlock struct {
	ref  uint64
	dims uint64
	dt   DataType
	kind PropertyKind
}

// checkedIndices returns the sample indices Check reads through a schema: the first
// 16, 16 more spread over the rest, and the last. The property walk has already read
// every stored sample; this checks the schema's view of them, and stays short for a
// header that claims billions of samples.
func checkedIndices(n int) []int {
	var out []int
	for i := 0; i < min(n, 16); i++ {
		out = append(out, i)
	}
	if n > 16 {
		step := max((n-16)/16, 1)
		for i := 16; i < n-1; i += step {
			out = append(out, i)
		}
		out = append(out, n-1)
	}
	return out
}

func (a *Archive) checkCompound(c *Compound, seen map[checkedBlock]bool) error {
	for _, h := range c.Headers() {
		if h.Kind == CompoundProperty {
			sub, err := c.Compound(h.Name)
			if err != nil {
				return err
			}
			if err := a.checkCompound(sub, seen); err != nil {
				return err
			}
			continue
		}
		p, err := c.Property(h.Name)
		if err != nil {
			return err
		}
		var buf []byte
		for j := 0; j < p.NumStored(); j++ {
			key := checkedBlock{dt: h.DataType, kind: h.Kind}
			if h.Kind == ArrayProperty {
				key.ref, key.dims = p.g.children[2*j], p.g.children[2*j+1]
			} else {
				key.ref = p.g.children[j]
			}
			if seen[key] {
				continue
			}
			s, err := p.readStored(j, buf)
			if err != nil {
				return err
			}
			buf = s.Data[:0]
			seen[key] = true
		}
	}
	return nil
}
