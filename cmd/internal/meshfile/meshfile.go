// Package meshfile reads one static mesh from a file of any format the tools take,
// chosen by its extension: OBJ, STL, PLY (see ply.go), glTF/GLB in its rest pose
// or posed by an animation, or an Alembic archive at a time (abc.go, which also
// serves voxelize's animated reads); and writes PLY meshes (ply_write.go).
package meshfile

import (
	"fmt"
	"path/filepath"
	"strings"

	"snowtools/formats/gltf"
	"snowtools/formats/input"
	"snowtools/formats/obj"
	"snowtools/formats/stl"
	"snowtools/levelset/geom"
)

// Read reads the mesh in path. A glTF scene gives its rest pose (no animation).
func Read(path string) (*geom.Mesh, error) {
	return ReadAt(path, "", -1)
}

// ReadAt reads the mesh in path; for a glTF scene, posed by its animation clip (by
// name; "" for all of them together) at time t seconds, or in its rest pose for
// t < 0; for an Alembic archive, every mesh of it at time t, or at its first sample
// for t < 0. Other formats have no animation: clip must be "" and t negative.
func ReadAt(path, clip string, t float64) (*geom.Mesh, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".gltf", ".glb":
		scene, err := gltf.Open(path)
		if err != nil {
			return nil, err
		}
		if t < 0 {
			if clip != "" {
				return nil, fmt.Errorf("%s: clip %q needs a time", path, clip)
			}
			return scene.Mesh(-1, 0)
		}
		index := gltf.AllClips // as voxelize plays them: Blender writes one per action
		if clip != "" {
			if index, err = scene.ClipByName(clip); err != nil {
				return nil, err
			}
		} else if len(scene.Clips()) == 0 {
			return nil, fmt.Errorf("%s: no animation to pose at %g s", path, t)
		}
		return scene.Mesh(index, t)
	case AlembicExtension:
		if clip != "" {
			return nil, fmt.Errorf("%s: clip %q: only glTF files have animation clips", path, clip)
		}
		return readAlembic(path, t)
	case ".obj", ".stl", ".ply":
		if clip != "" || t >= 0 {
			return nil, fmt.Errorf("%s: only glTF files have animation clips and times", path)
		}
	default:
		return nil, unknownFormat(path, ext)
	}
	f, err := input.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var m *geom.Mesh
	switch ext {
	case ".stl":
		m, err = stl.Read(f)
	case ".ply":
		m, err = decodePLY(f, true) // unbuffered: the reader buffers, and sizes its reads from the file
	default:
		m, err = obj.Read(f)
	}
	if err != nil {
		// The readers take a stream and say where in it; the path says which file.
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Extensions lists the file extensions of the meshes that Read takes as one frame
// each, lower case, with the dot. Read takes Alembic archives (AlembicExtension) as
// well, at their first sample; they are not listed, since an archive is a whole
// animation, not the mesh of one frame.
var Extensions = []string{".obj", ".stl", ".ply", ".gltf", ".glb"}

// unknownFormat reports a file that Read does not take.
func unknownFormat(path, ext string) error {
	return fmt.Errorf("%s: unknown mesh format %q: use %s or %s", path, ext, strings.Join(Extensions, ", "), AlembicExtension)
}

// Bounds returns the box of the vertices of the mesh in path (empty, lo > hi, for
// a mesh without vertices; a glTF scene in its rest pose). A PLY file is read only
// up to the end of its vertex element, usually half of it; other formats are read
// whole.
func Bounds(path string) (lo, hi geom.Vec3, err error) {
	if strings.ToLower(filepath.Ext(path)) != ".ply" {
		m, err := Read(path)
		if err != nil {
			return lo, hi, err
		}
		lo, hi = m.Bounds()
		return lo, hi, nil
	}
	f, err := input.Open(path)
	if err != nil {
		return lo, hi, err
	}
	defer f.Close()
	if lo, hi, err = vertexBounds(f); err != nil {
		return lo, hi, fmt.Errorf("%s: %w", path, err)
	}
	return lo, hi, nil
}
