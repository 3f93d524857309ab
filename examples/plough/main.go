// Command plough writes the animated collider of the plough example: a wedge-shaped
// blade that moves along +x through a layer of snow, as an OBJ sequence
// (plough.0001.obj, ...), the way a DCC exports a mesh cache. voxelize turns it into
// the collider snowsim reads; README.md gives the three commands.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("o", "plough-demo", "output `folder`")
	frames := flag.Int("frames", 37, "number of `frames`, the first at t = 0")
	fps := flag.Float64("fps", 24, "frames per `second`")
	speed := flag.Float64("speed", 0.5, "blade speed along +x in `m/s`")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "plough:", err)
		os.Exit(1)
	}
	for f := 1; f <= *frames; f++ {
		x := 0.05 + *speed*float64(f-1) / *fps
		path := filepath.Join(*dir, fmt.Sprintf("plough.%04d.obj", f))
		if err := writeWedge(path, x); err != nil {
			fmt.Fprintln(os.Stderr, "plough:", err)
			os.Exit(1)
		}
	}
	fmt.Fprintf(os.Stderr, "plough: wrote %d frames to %s\n", *frames, filepath.Join(*dir, "plough.####.obj"))
}

// writeWedge writes the blade with its back at x: a prism whose cross-section in the
// x-z plane is a triangle pointing along +x (tip 0.15 m ahead of the back, 0.36 m
// wide at the back, centred on z = 0.3), standing from y = 0 to y = 0.25.
func writeWedge(path string, x float64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "# plough blade, back at x = %g m\no plough\n", x)
	section := [3][2]float64{{x + 0.15, 0.3}, {x, 0.12}, {x, 0.48}} // tip, back corners (x, z)
	for _, y := range []float64{0, 0.25} {
		for _, p := range section {
			fmt.Fprintf(w, "v %.6f %.6f %.6f\n", p[0], y, p[1])
		}
	}
	// Counter-clockwise from outside: bottom (normal -y), top (+y), then the three sides.
	fmt.Fprint(w, "f 1 3 2\nf 4 5 6\nf 1 2 5 4\nf 2 3 6 5\nf 3 1 4 6\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
