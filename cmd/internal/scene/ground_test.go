package scene

import (
	"strings"
	"testing"

	"snowtools/cmd/internal/scene/scenetest"
)

func TestGroundSceneErrors(t *testing.T) {
	replace := func(old, new string) string { return strings.Replace(scenetest.GroundScene, old, new, 1) }
	for _, c := range []struct{ scene, want string }{
		{replace(`material = "sand"`, `material = "gravel"`), `ground.material: ground material "gravel"`},
		{replace("cell = 0.01", "cell = -1"), "ground.cell: -1"},
		{replace("max = [0.2, 0.15]", "max = [-0.3, 0.15]"), "ground.max"},
		{scenetest.GroundScene + "[[snow]]\nshape = \"sphere\"\n", "use one method per scene"},
		{scenetest.GroundScene + "[ground.noise]\nscale = 0\n", "ground.noise: noise scale"},
		{scenetest.GroundScene + "[ground.spray]\nrelease_time = 0\n", "spray release time"},
		{scenetest.GroundScene + "[output]\nground_mesh = \"g.####.stl\"\n", "output.ground_mesh"},
		{scenetest.GroundScene + "[output]\nground_area = \"some\"\n", "output.ground_area"},
		{scenetest.GroundScene + "[output]\ncolliders = \"ground.####.ply\"\n", "output.colliders: \"ground.####.ply\" is output.ground_mesh's name too"},
		{scenetest.GroundScene + "[output]\nchannels = [\"Orientation\"]\n", "output.channels: for [[snow]] scenes"},
		{scenetest.GroundScene + "[ground.height_map]\npath = \"missing.png\"\n", "ground.height_map.path"},
		{scenetest.GroundScene[:strings.Index(scenetest.GroundScene, "[[collider]]")], "needs a [[collider]]"},
	} {
		_, err := Read("s.toml", strings.NewReader(c.scene), 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one naming %q", err, c.want)
		}
	}
}
