package checkpoint

import "snowtools/simcore"

// column is a particle channel's column in the file.
type column struct {
	*simcore.Channel
	// flag is the state flag that says the column is there, for an Optional channel
	// (which a state may lack); 0 for the others, which are always there.
	flag uint32
}

const flagVolumesKnown = 1 // state flag: stage 2 (particle volumes) has run

// columns lists every channel of simcore.Channels in table order, which is file order.
// Optional channels take the flags from bit 1 up, in table order: Sinter has bit 1.
// knownFlags is every flag that has a meaning.
var columns, knownFlags = fileColumns()

func fileColumns() ([]column, uint32) {
	cols := make([]column, len(simcore.Channels))
	known, next := uint32(flagVolumesKnown), uint32(flagVolumesKnown<<1)
	for i := range simcore.Channels {
		cols[i].Channel = &simcore.Channels[i]
		if cols[i].Optional {
			cols[i].flag = next
			known |= next
			next <<= 1
		}
	}
	return cols, known
}

// in reports whether the column is in a state with the given flags.
func (c column) in(flags uint32) bool { return c.flag == 0 || flags&c.flag != 0 }

// stateFlags returns the flags that describe st.
func stateFlags(st *simcore.State) uint32 {
	var flags uint32
	if st.VolumesKnown {
		flags |= flagVolumesKnown
	}
	for _, c := range columns {
		if c.flag != 0 && c.Present(&st.Particles) {
			flags |= c.flag
		}
	}
	return flags
}
