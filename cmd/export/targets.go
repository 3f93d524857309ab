package main

import (
	"fmt"
	"slices"
	"strings"

	"snowtools/formats/ply"
	"snowtools/formats/prt"
)

// A target is a program that loads what export writes (-for), with the names, and
// the types where they matter, under which it looks for each quantity in each
// format. export's own names, used without -for, are a target too (ownNames), so
// that every converter takes its names from this one table. Channels and grids not
// named here (the -props channels) keep export's names in every target: snowsim's
// channel names in a PRT, their snake_case in a PLY or VDB (gridName).
//
// Where the names come from (the docs of each program):
//
//   - Houdini: point attributes P, v, Cd, N, id (int) and pscale (a float, the
//     point's size), sidefx.com/docs/houdini/model/attributes.html; volumes "density"
//     and "vel" (a vector field), as the Pyro solver's fields are called
//     (sidefx.com/docs/houdini/nodes/dop/pyrosolver.html). A PLY holds scalars only,
//     so P, N, Cd and v arrive as x y z, nx ny nz, red green blue and vx vy vz.
//     Houdini's documented geometry formats (io/formats/geometry_formats.html) have
//     no PRT reader;
//     Thinkbox's Houdini PRT exporter maps v, Cd, id and pscale to Velocity, Color,
//     ID (int32) and Scale.
//   - Blender 3.4: its Volume object reads the velocity grid "velocity" (the
//     velocity_grid property's default) and the Principled Volume shader "density",
//     "color" and "temperature" (docs.blender.org, modeling/volumes); its PLY importer
//     (io_mesh_ply/import_ply.py) reads x y z, s t and red green blue (alpha), and
//     skips normals and every other property. It reads no PRT.
//   - Krakatoa: PRT channels Position (float32[3], required), Velocity, Density,
//     Color (float16[3]), ID, Normal (docs.thinkboxsoftware.com, Krakatoa 2.12,
//     "Krakatoa Particle Channels" and "Data Channels In Krakatoa MY"); its PLY reader
//     keeps Position, Normal, Color and TextureCoord (thinkbox-library,
//     ply_particle_istream.cpp). Its PRT Loader reads PRT, RealFlow BIN, RPC, CSV,
//     LAS, PTS and PTX, no VDB.
type target struct {
	name string // -for's value; "" for export's own names
	prt  *prtNaming
	ply  *plyNaming
	vdb  *vdbNaming
	// without says, for a format the program does not load (a nil naming above),
	// what to write for it instead.
	without map[string]string
}

// prtNaming is what a program expects of a PRT: the channels keep snowsim's names,
// which are Krakatoa's (Position, Velocity, Density, ID, Color, ...).
type prtNaming struct {
	color prt.DataType // the Color channel that -color writes
}

// plyNaming names the vertex properties of a PLY point cloud, beside x y z, which
// every reader wants. The ID is an int, the colour uchar (Krakatoa divides it by
// 255), the rest float.
type plyNaming struct {
	id       string    // the particle ID
	normal   [3]string // -normals
	color    [3]string // -color
	velocity [3]string // -velocity
	// radius names each particle's radius, written for programs that size points by
	// one; "" for the others.
	radius string
	// zUp marks a program whose PLY importer is Z up and has no axis option
	// (Blender's): its PLY files are written Z up unless -up says otherwise.
	zUp bool
}

// vdbNaming names the grids of a .vdb.
type vdbNaming struct {
	density  string // the fog, kg/m^3
	surface  string // -to surface's level set
	velocity string // -velocity
}

// idType is the type of the particle ID in every file export writes, whatever the
// target: PLY has no 64-bit integer and Houdini's id is an int32, so the snow's
// int32 is the one type (snowsim writes the spray's IDs as int32 too).
const (
	idType    = prt.Int32
	idPLYType = ply.Int
)

// The PLY properties every target reads by these names.
var (
	plyNormal   = [3]string{"nx", "ny", "nz"}
	plyColor    = [3]string{"red", "green", "blue"}
	plyVelocity = [3]string{"vx", "vy", "vz"}
)

// ownNames are export's names, without -for: those of the files before -for existed.
var ownNames = &target{
	prt: &prtNaming{color: prt.Float32},
	ply: &plyNaming{id: "id", normal: plyNormal, color: plyColor, velocity: plyVelocity},
	vdb: &vdbNaming{density: "density", surface: "surface", velocity: "velocity"},
}

// targets are the programs -for names.
var targets = map[string]*target{
	"houdini": {
		name: "houdini",
		ply:  &plyNaming{id: "id", normal: plyNormal, color: plyColor, velocity: plyVelocity, radius: "pscale"},
		vdb:  &vdbNaming{density: "density", surface: "surface", velocity: "vel"},
		without: map[string]string{
			"prt": "Houdini reads no PRT without a plug-in; write -to ply (points with id and pscale) or -to vdb, or -for krakatoa for a plug-in that reads Krakatoa's channels",
		},
	},
	"blender": {
		name: "blender",
		ply:  &plyNaming{id: "id", normal: plyNormal, color: plyColor, velocity: plyVelocity, zUp: true},
		vdb:  &vdbNaming{density: "density", surface: "surface", velocity: "velocity"},
		without: map[string]string{
			"prt": "Blender reads no PRT; write -to ply (points) or -to vdb (a volume)",
		},
	},
	"krakatoa": {
		name: "krakatoa",
		prt:  &prtNaming{color: prt.Float16},
		ply:  &plyNaming{id: "id", normal: plyNormal, color: plyColor, velocity: plyVelocity},
		without: map[string]string{
			"vdb": "Krakatoa renders particles and loads no VDB; write -to prt",
		},
	},
}

// targetNames lists the values of -for, sorted.
func targetNames() []string {
	names := make([]string, 0, len(targets))
	for n := range targets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// lookupTarget returns the target -for names ("" for export's own names).
func lookupTarget(name string) (*target, error) {
	if name == "" {
		return ownNames, nil
	}
	t, ok := targets[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("-for %q: use %s", name, strings.Join(targetNames(), ", "))
	}
	return t, nil
}

// reads reports whether the target loads files of format ("prt", "ply" or "vdb"),
// and if not, an error that says what to write instead.
func (t *target) reads(format string) error {
	var has bool
	switch format {
	case "prt":
		has = t.prt != nil
	case "ply":
		has = t.ply != nil
	case "vdb":
		has = t.vdb != nil
	}
	if has {
		return nil
	}
	return fmt.Errorf("-for %s -to %s: %s", t.name, format, t.without[format])
}

// origin says what gave a name the target chose, for messages: the flag that asked
// for the quantity, and -for when a program's names were asked for.
func (t *target) origin(flag string) string {
	if t.name == "" {
		return flag
	}
	return flag + " (-for " + t.name + ")"
}
