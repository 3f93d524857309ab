package abc

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
)

// TimeSampling says at which times (seconds) a property's samples lie. Alembic has
// three kinds, told apart by TimePerCycle and the number of stored Times:
//
//   - uniform: one stored time t0; sample i is at t0 + i*TimePerCycle;
//   - cyclic: n > 1 stored times within one cycle; sample i is at
//     Times[i%n] + (i/n)*TimePerCycle;
//   - acyclic: TimePerCycle is AcyclicTimePerCycle and Times lists every sample's
//     time.
//
// An archive lists its time samplings once; index 0 is always the identity sampling
// (uniform, t0 = 0, one second per sample), and each property names one by index.
// On disk each entry is: uint32 the most samples any property has with it, float64
// TimePerCycle, uint32 n, then n float64 times.
type TimeSampling struct {
	TimePerCycle float64
	Times        []float64 // strictly increasing
}

// AcyclicTimePerCycle marks an acyclic sampling: the largest float64 divided by 32,
// as Alembic stores it.
const AcyclicTimePerCycle = math.MaxFloat64 / 32

// timeEpsilon is Alembic's tolerance when matching a time to a sample's time.
const timeEpsilon = 1e-5

// Uniform returns the sampling of one sample every step seconds from start: frame n
// of a sequence at fps frames per second is Uniform(1/fps, first/fps).
func Uniform(step, start float64) TimeSampling {
	return TimeSampling{TimePerCycle: step, Times: []float64{start}}
}

// Cyclic returns a sampling that repeats times (within one cycle) every period.
func Cyclic(period float64, times ...float64) TimeSampling {
	return TimeSampling{TimePerCycle: period, Times: append([]float64(nil), times...)}
}

// Acyclic returns the sampling of one sample at each of times.
func Acyclic(times ...float64) TimeSampling {
	return TimeSampling{TimePerCycle: AcyclicTimePerCycle, Times: append([]float64(nil), times...)}
}

// IsAcyclic reports whether ts lists every sample's time.
func (ts TimeSampling) IsAcyclic() bool { return ts.TimePerCycle == AcyclicTimePerCycle }

// IsUniform reports whether ts samples every TimePerCycle seconds.
func (ts TimeSampling) IsUniform() bool { return !ts.IsAcyclic() && len(ts.Times) == 1 }

// IsCyclic reports whether ts repeats several samples per cycle.
func (ts TimeSampling) IsCyclic() bool { return !ts.IsAcyclic() && len(ts.Times) > 1 }

// validate checks what Alembic's TimeSampling checks: at least one time, strictly
// increasing times, a positive time per cycle, cyclic times within one cycle.
func (ts TimeSampling) validate() error {
	switch {
	case len(ts.Times) == 0:
		return errors.New("no sample times")
	case !(ts.TimePerCycle > 0) || ts.TimePerCycle > AcyclicTimePerCycle:
		return errors.New("time per cycle " + strconv.FormatFloat(ts.TimePerCycle, 'g', -1, 64) + " is not positive")
	}
	for i, t := range ts.Times {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return errors.New("sample time " + strconv.Itoa(i) + " is not finite")
		}
		if i > 0 && !(ts.Times[i-1] < t) {
			return errors.New("sample time " + strconv.Itoa(i) + " is not after the one before it")
		}
	}
	if ts.IsCyclic() && ts.Times[len(ts.Times)-1]-ts.Times[0] > ts.TimePerCycle {
		return errors.New("cyclic sample times span more than the time per cycle")
	}
	return nil
}

// SampleTime returns the time of sample i. For an acyclic sampling, i must be below
// len(Times).
func (ts TimeSampling) SampleTime(i int) float64 {
	switch {
	case ts.IsAcyclic():
		return ts.Times[i]
	case ts.IsUniform():
		return ts.Times[0] + ts.TimePerCycle*float64(i)
	default:
		n := len(ts.Times)
		return ts.Times[i%n] + ts.TimePerCycle*float64(i/n)
	}
}

// FloorIndex returns the last of numSamples samples at or before time t (within
// Alembic's 1e-5 s tolerance), or sample 0 when t is before the first.
func (ts TimeSampling) FloorIndex(t float64, numSamples int) int {
	if numSamples < 1 {
		return 0
	}
	if t <= ts.SampleTime(0) {
		return 0
	}
	last := numSamples - 1
	if ts.IsAcyclic() {
		last = min(last, len(ts.Times)-1)
	}
	if t >= ts.SampleTime(last) {
		return last
	}
	// Binary search for the last sample at or before t: sample times increase with
	// the index for every kind.
	lo, hi := 0, last // time(lo) < t < time(hi)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ts.SampleTime(mid) <= t {
			lo = mid
		} else {
			hi = mid
		}
	}
	if math.Abs(ts.SampleTime(hi)-t) <= timeEpsilon {
		return hi
	}
	return lo
}

// CeilIndex returns the first of numSamples samples at or after time t (within the
// tolerance), or the last one when t is after it.
func (ts TimeSampling) CeilIndex(t float64, numSamples int) int {
	i := ts.FloorIndex(t, numSamples)
	if i == numSamples-1 || numSamples < 1 || math.Abs(ts.SampleTime(i)-t) <= timeEpsilon || t < ts.SampleTime(i) {
		return i
	}
	if ts.IsAcyclic() && i+1 >= len(ts.Times) {
		return i
	}
	return i + 1
}

// NearIndex returns the sample nearest time t (the earlier one on a tie), as
// Alembic's default sample selector does.
func (ts TimeSampling) NearIndex(t float64, numSamples int) int {
	lo := ts.FloorIndex(t, numSamples)
	hi := ts.CeilIndex(t, numSamples)
	if math.Abs(t-ts.SampleTime(lo)) <= math.Abs(ts.SampleTime(hi)-t) {
		return lo
	}
	return hi
}

// appendTimeSampling appends the on-disk entry of ts with its largest sample count.
func appendTimeSampling(b []byte, ts TimeSampling, maxSamples uint32) []byte {
	b = binary.LittleEndian.AppendUint32(b, maxSamples)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(ts.TimePerCycle))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ts.Times)))
	for _, t := range ts.Times {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(t))
	}
	return b
}

// parseTimeSamplings decodes the archive's time-sampling block, which starts at byte
// off of the file.
func parseTimeSamplings(b []byte, off int64) ([]TimeSampling, []uint32, error) {
	var samplings []TimeSampling
	var maxSamples []uint32
	for pos := 0; pos < len(b); {
		if len(b)-pos < 16 {
			return nil, nil, formatError(off+int64(pos), "", "time sampling "+strconv.Itoa(len(samplings))+" cut short")
		}
		maxS := binary.LittleEndian.Uint32(b[pos:])
		tpc := math.Float64frombits(binary.LittleEndian.Uint64(b[pos+4:]))
		n := binary.LittleEndian.Uint32(b[pos+12:])
		pos += 16
		if n < 1 || uint64(n) > uint64(len(b)-pos)/8 {
			return nil, nil, formatError(off+int64(pos-4), "", "time sampling "+strconv.Itoa(len(samplings))+
				" claims "+strconv.FormatUint(uint64(n), 10)+" sample times, which the block does not hold")
		}
		ts := TimeSampling{TimePerCycle: tpc, Times: make([]float64, n)}
		for i := range ts.Times {
			ts.Times[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[pos:]))
			pos += 8
		}
		if err := ts.validate(); err != nil {
			return nil, nil, &FormatError{Offset: off + int64(pos), Msg: "time sampling " + strconv.Itoa(len(samplings)), Err: err}
		}
		samplings = append(samplings, ts)
		maxSamples = append(maxSamples, maxS)
	}
	return samplings, maxSamples, nil
}
