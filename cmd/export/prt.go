package main

import (
	"fmt"
	"io"
	"slices"

	"snowtools/formats/prt"
)

// prtConverter rewrites PRT files with other channels: kept, dropped or renamed,
// stored as float16, and with a Color channel from -color.
type prtConverter struct{ s *settings }

// A channelCopy moves one channel from an input record to an output record,
// converting it when the output stores another type.
type channelCopy struct {
	from, to prt.Channel
}

func (c *prtConverter) convert(j job, _ int) result {
	f, err := readFrame(j.in.Path)
	if err != nil {
		return result{err: err}
	}
	h, copies, color, err := c.s.prtLayout(f.Header)
	if err != nil {
		return result{err: err}
	}
	rgb, err := c.s.colors(f)
	if err != nil {
		return result{err: err}
	}
	size, err := writeOutput(j.out, func(w io.Writer) error {
		pw, err := prt.NewWriter(w, h)
		if err != nil {
			return err
		}
		rec := make([]byte, h.ParticleSize())
		inSize := f.Header.ParticleSize()
		var values []float32
		for i := range f.Len() {
			in := f.Data[i*inSize : (i+1)*inSize]
			for _, cp := range copies {
				if cp.from.Type == cp.to.Type {
					copy(rec[cp.to.Offset:cp.to.End()], in[cp.from.Offset:cp.from.End()])
					continue
				}
				if values, err = cp.from.AppendFloat32s(values[:0], in); err != nil {
					return fmt.Errorf("particle %d: %v", i, err)
				}
				cp.to.PutFloat16s(rec, values...)
			}
			if rgb != nil {
				r, g, b := float32(rgb[3*i])/255, float32(rgb[3*i+1])/255, float32(rgb[3*i+2])/255
				if color.Type == prt.Float16 {
					color.PutFloat16s(rec, r, g, b)
				} else {
					color.PutFloat32s(rec, r, g, b)
				}
			}
			if err := pw.WriteParticle(rec); err != nil {
				return err
			}
		}
		return pw.Close()
	})
	return result{particles: f.Len(), bytes: size, err: err}
}

func (c *prtConverter) finish(io.Writer) error { return nil }

// prtLayout plans the output of a PRT conversion from the input header: which
// channels go where with which type, the metadata that follows them, and the Color
// channel if -color asks for one. Every channel the flags name must exist.
func (s *settings) prtLayout(in prt.Header) (out prt.Header, copies []channelCopy, color prt.Channel, err error) {
	has := func(name string) bool { _, ok := in.Channel(name); return ok }
	for _, flagList := range []struct {
		flag  string
		names []string
	}{{"-keep", s.keep}, {"-drop", s.drop}, {"-rename", mapKeys(s.rename)}} {
		for _, name := range flagList.names {
			if !has(name) {
				return out, nil, color, fmt.Errorf("%s %s: no such channel (channels: %s)", flagList.flag, name, channelNames(in))
			}
		}
	}
	halfDone := map[string]bool{}
	newName := map[string]string{} // input name -> output name, for metadata
	for _, ch := range in.Channels {
		if (len(s.keep) > 0 && !slices.Contains(s.keep, ch.Name)) || slices.Contains(s.drop, ch.Name) {
			if ch.Name == "Position" {
				return out, nil, color, fmt.Errorf("the Position channel cannot be dropped: Krakatoa and every other reader need it")
			}
			continue
		}
		if s.color != "" && ch.Name == "Color" {
			continue // replaced by the colours of -color
		}
		name := ch.Name
		if to, ok := s.rename[name]; ok {
			if name == "Position" {
				return out, nil, color, fmt.Errorf("-rename Position=%s: Krakatoa refuses a PRT without Position (Houdini reads it as P by itself)", to)
			}
			name = to
		}
		typ := ch.Type
		if slices.Contains(s.half, name) || slices.Contains(s.half, ch.Name) {
			halfDone[name], halfDone[ch.Name] = true, true
			switch {
			case name == "Position":
				return out, nil, color, fmt.Errorf("-half Position: Krakatoa requires Position as float32")
			case !ch.Type.IsFloat():
				return out, nil, color, fmt.Errorf("-half %s: the channel holds %s, not floating-point values", ch.Name, ch.Type)
			}
			typ = prt.Float16
		}
		newName[ch.Name] = name
		copies = append(copies, channelCopy{from: ch, to: out.AddChannel(name, typ, ch.Arity)})
	}
	if s.color != "" {
		typ := prt.Float32
		if slices.Contains(s.half, "Color") {
			typ, halfDone["Color"] = prt.Float16, true
		}
		color = out.AddChannel("Color", typ, 3)
	}
	for _, name := range s.half {
		if !halfDone[name] {
			return out, nil, color, fmt.Errorf("-half %s: no such channel in the output (channels: %s)", name, channelNames(out))
		}
	}
	for _, m := range in.Meta {
		if m.Channel == "" {
			out.Meta = append(out.Meta, m)
		} else if to, ok := newName[m.Channel]; ok {
			m.Channel = to
			out.Meta = append(out.Meta, m)
		}
	}
	out.Count = in.Count
	return out, copies, color, out.Validate()
}

// mapKeys returns the keys of m, sorted.
func mapKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
