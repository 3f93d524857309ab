package blosc

// c-blosc itself is the judge here: Debian's libblosc1 1.21, which OpenVDB links
// and which comes with it, called from /usr/bin/python3 through ctypes.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"snowtools/formats/vdb/vdbtest"
)

// cJob is one call of c-blosc (see testdata/cblosc.py).
type cJob struct {
	Op        string `json:"op"`
	In        string `json:"in"`
	Out       string `json:"out"`
	Codec     string `json:"codec,omitempty"`
	Shuffle   int    `json:"shuffle"`
	TypeSize  int    `json:"typesize"`
	BlockSize int    `json:"blocksize"`
	CLevel    int    `json:"clevel"`
}

// runCBlosc writes each job's input to a folder, runs c-blosc on them all, and
// returns each job's output and return code.
func runCBlosc(t *testing.T, jobs []cJob, inputs [][]byte) (outputs [][]byte, codes []int) {
	t.Helper()
	vdbtest.NeedOpenVDB(t)
	dir := t.TempDir()
	for i := range jobs {
		jobs[i].In, jobs[i].Out = fmt.Sprintf("in%d", i), fmt.Sprintf("out%d", i)
		if err := os.WriteFile(filepath.Join(dir, jobs[i].In), inputs[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := json.Marshal(jobs)
	if err := os.WriteFile(filepath.Join(dir, "jobs.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	vdbtest.Run(t, vdbtest.Python, filepath.Join("testdata", "cblosc.py"), dir)
	var res struct {
		Codes       []int  `json:"codes"`
		Version     string `json:"version"`
		Compressors string `json:"compressors"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err == nil {
		err = json.Unmarshal(data, &res)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("c-blosc %s, compressors %s: %d calls", res.Version, res.Compressors, len(jobs))
	for i := range jobs {
		out, err := os.ReadFile(filepath.Join(dir, jobs[i].Out))
		if err != nil {
			t.Fatal(err)
		}
		outputs = append(outputs, out)
	}
	return outputs, res.Codes
}

// Frames c-blosc writes, with every codec we read (lz4hc writes LZ4 data), every
// shuffle, type sizes from 1 to 20, its own block sizes and forced ones,
// compression levels 1 and 9, decompress here to the data.
func TestReadCBloscFrames(t *testing.T) {
	var jobs []cJob
	var inputs [][]byte
	var names []string
	for name, data := range samples() {
		for _, codec := range []string{"lz4", "lz4hc", "blosclz", "zlib"} {
			for shuffle := range 3 {
				for _, ts := range []int{1, 2, 4, 12, 20} {
					for _, bs := range []int{0, 1000} {
						for _, level := range []int{1, 9} {
							jobs = append(jobs, cJob{Op: "compress", Codec: codec, Shuffle: shuffle, TypeSize: ts, BlockSize: bs, CLevel: level})
							inputs = append(inputs, data)
							names = append(names, name)
						}
					}
				}
			}
		}
	}
	frames, codes := runCBlosc(t, jobs, inputs)
	var d Decoder
	seen := map[string]bool{}
	for i, frame := range frames {
		label := fmt.Sprintf("%s %+v", names[i], jobs[i])
		if codes[i] <= 0 {
			t.Fatalf("%s: c-blosc returned %d", label, codes[i])
		}
		h, err := ReadHeader(frame)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		seen[fmt.Sprintf("flags %#02x", h.Flags)] = true
		got, err := d.Decompress(nil, frame)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if !bytes.Equal(got, inputs[i]) {
			t.Fatalf("%s: decompresses to other data", label)
		}
	}
	t.Logf("header flags seen: %v", seen)
}

// Frames written here, with every option, decompress with c-blosc to the data.
func TestCBloscReadsOurFrames(t *testing.T) {
	var jobs []cJob
	var inputs, want [][]byte
	var labels []string
	var e Encoder
	for name, data := range samples() {
		for _, o := range allOptions() {
			frame, err := e.Compress(nil, data, o)
			if err != nil {
				t.Fatal(err)
			}
			jobs = append(jobs, cJob{Op: "decompress"})
			inputs = append(inputs, frame)
			want = append(want, data)
			labels = append(labels, fmt.Sprintf("%s %+v", name, o))
		}
	}
	outputs, codes := runCBlosc(t, jobs, inputs)
	for i, out := range outputs {
		if codes[i] != len(want[i]) || !bytes.Equal(out, want[i]) {
			t.Errorf("%s: c-blosc returns %d and other data", labels[i], codes[i])
		}
	}
}

// Our frames against c-blosc's for what OpenVDB compresses: a level set's leaf,
// byte shuffle of 4-byte elements, one block, clevel 9 (OpenVDB's settings).
func TestSizesAgainstCBlosc(t *testing.T) {
	leaf := samples()["level set leaf"]
	vec := samples()["vec3s leaf"]
	var jobs []cJob
	var inputs [][]byte
	codecs := map[string]Codec{"lz4": LZ4, "blosclz": BloscLZ, "zlib": Zlib}
	names := []string{"lz4", "blosclz", "zlib"}
	for _, data := range [][]byte{leaf, vec} {
		for _, name := range names {
			jobs = append(jobs, cJob{Op: "compress", Codec: name, Shuffle: 1, TypeSize: 4, BlockSize: len(data), CLevel: 9})
			inputs = append(inputs, data)
		}
	}
	_, codes := runCBlosc(t, jobs, inputs)
	for i, job := range jobs {
		ours, _ := Compress(nil, inputs[i], Options{Codec: codecs[job.Codec], Shuffle: ByteShuffle, TypeSize: 4})
		ratio := float64(len(ours)) / float64(codes[i])
		t.Logf("%d bytes, %s: ours %d, c-blosc %d (%.3f)", len(inputs[i]), job.Codec, len(ours), codes[i], ratio)
		if ratio > 1.1 {
			t.Errorf("%s: our frame is %.2f times c-blosc's", job.Codec, ratio)
		}
	}
}
