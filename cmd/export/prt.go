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
	f, err := c.s.readFrame(j.in.Path)
	if err != nil {
		return result{err: err}
	}
	plan, err := c.s.prtLayout(f.Header)
	if err != nil {
		return result{err: err}
	}
	rgb, err := c.s.colors(f)
	if err != nil {
		return result{err: err}
	}
	var ids []int32
	if plan.id != nil {
		if ids, err = f.ids(); err != nil {
			return result{err: err}
		}
	}
	h := plan.header
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
			for _, cp := range plan.copies {
				if cp.from.Type == cp.to.Type {
					copy(rec[cp.to.Offset:cp.to.End()], in[cp.from.Offset:cp.from.End()])
					continue
				}
				if values, err = cp.from.AppendFloat32s(values[:0], in); err != nil {
					return fmt.Errorf("particle %d: %v", i, err)
				}
				cp.to.PutFloat16s(rec, values...)
			}
			if ids != nil {
				plan.id.PutInt32s(rec, ids[i])
			}
			if rgb != nil {
				r, g, b := float32(rgb[3*i])/255, float32(rgb[3*i+1])/255, float32(rgb[3*i+2])/255
				plan.color.PutFloats(rec, float64(r), float64(g), float64(b))
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

// A prtPlan is the output of a PRT conversion: its header, the channels copied from
// the input record (converted when stored as float16), the Color channel of -color
// and, when the input's ID is not idType, the output's ID channel, written from
// frame.ids.
type prtPlan struct {
	header prt.Header
	copies []channelCopy
	color  *prt.Channel // nil without -color
	id     *prt.Channel // nil when the ID is copied as it is, or absent
}

// prtLayout plans the output of a PRT conversion from the input header: which
// channels go where with which type and name, the metadata that follows them, and
// the Color channel if -color asks for one, as the -for target wants it. Every
// channel the flags name must exist; the output's names are checked (Position kept,
// none twice, each a PRT name).
func (s *settings) prtLayout(in prt.Header) (plan prtPlan, err error) {
	has := func(name string) bool { _, ok := in.Channel(name); return ok }
	for _, flagList := range []struct {
		flag  string
		names []string
	}{{"-keep", s.keep}, {"-drop", s.drop}, {"-rename", mapKeys(s.rename)}} {
		for _, name := range flagList.names {
			if !has(name) {
				return plan, fmt.Errorf("%s %s: no such channel (channels: %s)", flagList.flag, name, channelNames(in))
			}
		}
	}
	out := &plan.header
	taken := newOutputNames("PRT channel", true, maxPRTName)
	halfDone := map[string]bool{}
	newName := map[string]string{} // input name -> output name, for metadata
	for _, ch := range in.Channels {
		if (len(s.keep) > 0 && !slices.Contains(s.keep, ch.Name)) || slices.Contains(s.drop, ch.Name) {
			if ch.Name == "Position" {
				return plan, fmt.Errorf("the Position channel cannot be dropped: Krakatoa and every other reader need it")
			}
			continue
		}
		if s.color != "" && ch.Name == "Color" {
			continue // replaced by the colours of -color
		}
		if to, ok := s.rename[ch.Name]; ok && ch.Name == "Position" {
			return plan, fmt.Errorf("-rename Position=%s: Krakatoa refuses a PRT without Position", to)
		}
		name, from := s.renamed(ch.Name, ch.Name, "the input channel "+ch.Name)
		if err := taken.add(name, from); err != nil {
			return plan, err
		}
		typ := ch.Type
		if slices.Contains(s.half, name) || slices.Contains(s.half, ch.Name) {
			halfDone[name], halfDone[ch.Name] = true, true
			switch {
			case name == "Position":
				return plan, fmt.Errorf("-half Position: Krakatoa requires Position as float32")
			case !ch.Type.IsFloat():
				return plan, fmt.Errorf("-half %s: the channel holds %s, not floating-point values", ch.Name, ch.Type)
			}
			typ = prt.Float16
		}
		newName[ch.Name] = name
		if ch.Name == "ID" && ch.Type != idType {
			id := out.AddChannel(name, idType, ch.Arity)
			plan.id = &id
			continue
		}
		plan.copies = append(plan.copies, channelCopy{from: ch, to: out.AddChannel(name, typ, ch.Arity)})
	}
	if s.color != "" {
		typ := s.target.prt.color
		if slices.Contains(s.half, "Color") {
			typ, halfDone["Color"] = prt.Float16, true
		}
		if err := taken.add("Color", s.target.origin("-color")); err != nil {
			return plan, err
		}
		color := out.AddChannel("Color", typ, 3)
		plan.color = &color
	}
	for _, name := range s.half {
		if !halfDone[name] {
			return plan, fmt.Errorf("-half %s: no such channel in the output (channels: %s)", name, channelNames(*out))
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
	return plan, out.Validate()
}

// maxPRTName is the longest PRT channel name: a PRT stores names in 32 bytes, NUL
// included.
const maxPRTName = 31

// mapKeys returns the keys of m, sorted.
func mapKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
