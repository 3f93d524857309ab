package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"snowtools/cmd/internal/seq"
)

// checkInputs makes sure, before anything is submitted, that what the jobs run and
// read exists: the tools of the shot's stages, snowsim's scene, voxelize's input and
// export's input when no stage of the shot writes it. A typo then fails here, naming
// the description's key, rather than in a job's log on the farm. (The farm's nodes
// are taken to see the same files as the machine that submits.) -dry-run checks
// nothing, so that scripts for another machine's paths can be printed.
func (s *Shot) checkInputs() error {
	fail := func(key, format string, args ...any) error {
		return &KeyError{File: s.File, Key: key, Problem: fmt.Sprintf(format, args...)}
	}
	var tools []string
	if s.Voxelize != nil {
		tools = append(tools, "voxelize")
	}
	if s.Snowsim != nil {
		tools = append(tools, "snowsim")
		if s.Snowsim.Wedge != nil {
			tools = append(tools, "export") // the contact sheet
		}
	}
	if s.Export != nil {
		tools = append(tools, "export")
	}
	for _, name := range tools {
		path := filepath.Join(s.Tools, name)
		if problem := fileProblem(path, true); problem != "" {
			return fail("tools", "%s: %s: go build -o bin/ ./cmd/... puts the tools in bin/; set tools to their folder", path, problem)
		}
	}
	if sim := s.Snowsim; sim != nil {
		if problem := fileProblem(sim.Scene, false); problem != "" {
			return fail("snowsim.scene", "%s: %s", sim.Scene, problem)
		}
	}
	if v := s.Voxelize; v != nil {
		if _, err := seq.Find(v.Input); err != nil {
			return fail("voxelize.input", "%v", err)
		}
	}
	if e := s.Export; e != nil && s.Snowsim == nil {
		if _, err := seq.Find(e.Input); err != nil {
			return fail("export.input", "%v", err)
		}
	}
	return nil
}

// fileProblem says what keeps path from being a file to read (or, with executable,
// to run), or "" when nothing does.
func fileProblem(path string, executable bool) string {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case err != nil:
		return err.Error()
	case info.IsDir():
		return "a folder, not a file"
	case executable && info.Mode()&0o111 == 0:
		return "not executable"
	}
	return ""
}
