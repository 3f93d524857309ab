package scene

import (
	"strings"
	"testing"
)

// groundScene is a 40 x 30 cm patch of ground that a ball presses 2 cm deep and
// leaves again.
const groundScene = `
[ground]
material = "sand"
cell = 0.01
min = [-0.2, -0.15]
max = [0.2, 0.15]

[time]
fps = 20
frames = 6

[[collider]]
shape = "sphere"
center = [0.0, 0.05, 0.0]
radius = 0.05
[[collider.key]]
time = 0.0
translation = [0.0, 0.02, 0.0]
[[collider.key]]
time = 0.1
translation = [0.0, -0.02, 0.0]
[[collider.key]]
time = 0.2
translation = [0.0, 0.1, 0.0]
`

func TestGroundSceneErrors(t *testing.T) {
	replace := func(old, new string) string { return strings.Replace(groundScene, old, new, 1) }
	for _, c := range []struct{ scene, want string }{
		{replace(`material = "sand"`, `material = "gravel"`), `ground.material: ground material "gravel"`},
		{replace("cell = 0.01", "cell = -1"), "ground.cell: -1"},
		{replace("max = [0.2, 0.15]", "max = [-0.3, 0.15]"), "ground.max"},
		{groundScene + "[[snow]]\nshape = \"sphere\"\n", "use one method per scene"},
		{groundScene + "[ground.noise]\nscale = 0\n", "ground.noise: noise scale"},
		{groundScene + "[ground.spray]\nrelease_time = 0\n", "spray release time"},
		{groundScene + "[output]\nground_mesh = \"g.####.stl\"\n", "output.ground_mesh"},
		{groundScene + "[output]\nground_area = \"some\"\n", "output.ground_area"},
		{groundScene + "[ground.height_map]\npath = \"missing.png\"\n", "ground.height_map.path"},
		{groundScene[:strings.Index(groundScene, "[[collider]]")], "needs a [[collider]]"},
	} {
		_, err := Read("s.toml", strings.NewReader(c.scene), 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one naming %q", err, c.want)
		}
	}
}
