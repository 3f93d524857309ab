package main

import (
	"fmt"
	"os"
	"path/filepath"

	"snowtools/cmd/internal/cli"
)

// endFiles are the files that export writes once, after every frame: the contact
// sheet, the animated GIF, the clusters report, the comparison picture and its
// -differences, and the Alembic archive.
func (s *settings) endFiles() []string {
	var files []string
	for _, f := range []string{s.view.sheet, s.view.gif, s.compare.output, s.abc.output} {
		if f != "" {
			files = append(files, f)
		}
	}
	if s.to == "clusters" && s.clusters.report != "-" && s.clusters.report != "" {
		files = append(files, s.clusters.report)
	}
	if s.to == "compare" && s.compare.differences != "-" && s.compare.differences != "" {
		files = append(files, s.compare.differences)
	}
	return files
}

// checkOutputs makes the folders of every output, per frame or at the end, and checks
// that each folder takes files and that no output names a folder, before any frame is
// read: a mistyped or read-only folder fails in a second instead of after the work (a
// contact sheet used to render every frame before finding that it could not write).
func checkOutputs(s *settings) error {
	for _, path := range append(s.outputs(), s.endFiles()...) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("output %s: %v", path, err)
		}
		if err := cli.CheckWritable(path); err != nil {
			return fmt.Errorf("output %v", err)
		}
	}
	return nil
}
