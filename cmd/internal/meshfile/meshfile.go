// Package meshfile reads one static mesh from a file of any format the tools take,
// chosen by its extension: OBJ, STL, or glTF/GLB in its rest pose.
package meshfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"snowtools/formats/gltf"
	"snowtools/formats/obj"
	"snowtools/formats/stl"
	"snowtools/levelset"
)

// Read reads the mesh in path. A glTF scene gives its rest pose (no animation).
func Read(path string) (*levelset.Mesh, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".gltf", ".glb":
		scene, err := gltf.Open(path)
		if err != nil {
			return nil, err
		}
		return scene.Mesh(-1, 0)
	case ".obj", ".stl":
	default:
		return nil, fmt.Errorf("%s: unknown mesh format %q: use .obj, .stl, .gltf or .glb", path, ext)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if ext == ".stl" {
		return stl.Read(f)
	}
	return obj.Read(f)
}
