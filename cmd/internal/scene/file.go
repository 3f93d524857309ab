package scene

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"snowtools/formats/input"
	"snowtools/levelset/geom"
)

// sceneFile is the TOML scene format, decoded and nothing more. Pointers mark keys
// that have a default, so that "absent" and "zero" differ.
type sceneFile struct {
	Domain    domainKeys              `toml:"domain"`
	Time      timeKeys                `toml:"time"`
	Solver    solverKeys              `toml:"solver"`
	Output    outputKeys              `toml:"output"`
	Ground    *groundKeys             `toml:"ground"`    // a ground scene (file_ground.go)
	Sintering windowKeys              `toml:"sintering"` // when sintering materials sinter
	Materials map[string]materialKeys `toml:"materials"`
	Snow      []snowKeys              `toml:"snow"`
	Collider  []colliderKeys          `toml:"collider"`
	Press     []pressKeys             `toml:"press"`
}

type domainKeys struct {
	Min          *geom.Vec3 `toml:"min"`
	Max          *geom.Vec3 `toml:"max"`
	H            *float64   `toml:"h"`
	Wall         *string    `toml:"wall"`
	WallFriction *float64   `toml:"wall_friction"`
}

type timeKeys struct {
	FPS       *float64 `toml:"fps"`
	Start     *int     `toml:"start"` // the first frame's number
	Frames    *int     `toml:"frames"`
	CFL       *float64 `toml:"cfl"`
	WaveCells *float64 `toml:"wave_cells"`
	MaxDt     *float64 `toml:"max_dt"`
	MinDt     *float64 `toml:"min_dt"`
}

type solverKeys struct {
	Gravity       *geom.Vec3 `toml:"gravity"`
	GravityStart  *float64   `toml:"gravity_start"` // s: no gravity before
	Damping       *float64   `toml:"damping"`       // 1/s: drag on the grid velocities
	Transfer      *string    `toml:"transfer"`      // pic-flip | apic
	FlipAlpha     *float64   `toml:"flip_alpha"`
	FlipAlphaStep *float64   `toml:"flip_alpha_step"` // s: the step flip_alpha is meant for; 0: every step
	Threads       *int       `toml:"threads"`
	Memory        *string    `toml:"memory"` // the run's memory budget, as -memory takes it ("8G")
	// Resting snow sleeps (simcore.Config.Sleep): below sleep_speed (m/s) for sleep_time (s).
	Sleep      *bool    `toml:"sleep"`
	SleepSpeed *float64 `toml:"sleep_speed"`
	SleepTime  *float64 `toml:"sleep_time"`
	// Stage 6, section 6.1.
	Integrator    *string  `toml:"integrator"`
	Beta          *float64 `toml:"beta"`
	Tolerance     *float64 `toml:"tolerance"`
	MaxIterations *int     `toml:"max_iterations"`
}

type outputKeys struct {
	Dir       *string  `toml:"dir"`
	Pattern   *string  `toml:"pattern"`
	Channels  []string `toml:"channels"`  // frame channels written on request (FrameChannels)
	Colliders *string  `toml:"colliders"` // the colliders' meshes per frame, .obj or .ply; "" for none
	Up        *string  `toml:"up"`        // the written meshes' up axis: "y" (default) or "z"
	Scale     *float64 `toml:"scale"`     // the written meshes' unit in metres (default 1)
	groundOutputKeys
}

// materialKeys are Table 2's names; absent keys keep the preset's values (Table 2's
// unless preset names another).
type materialKeys struct {
	Preset *string  `toml:"preset"`
	ThetaC *float64 `toml:"theta_c"`
	ThetaS *float64 `toml:"theta_s"`
	Xi     *float64 `toml:"xi"`
	Rho0   *float64 `toml:"rho0"`
	E0     *float64 `toml:"E0"`
	Nu     *float64 `toml:"nu"`
	// Sintering, when present (even empty), lets the material sinter under pressure.
	Sintering *sinteringLawKeys `toml:"sintering"`
}

// sinteringLawKeys is a [materials.NAME.sintering] table (Ye and Sugimoto's pressure
// sintering); absent keys keep simcore.DefaultSinteringLaw's values, so an empty table
// turns sintering on.
type sinteringLawKeys struct {
	RhoMax *float64 `toml:"rho_max"`
	C1     *float64 `toml:"C1"`
	C2     *float64 `toml:"C2"`
	C3     *float64 `toml:"C3"`
	C4     *float64 `toml:"C4"`
	C5     *float64 `toml:"C5"`
}

// windowKeys is a time window in seconds; an absent or zero end leaves it open.
type windowKeys struct {
	Start *float64 `toml:"start"`
	End   *float64 `toml:"end"`
}

// pressKeys is a [[press]]: an external force field that squeezes snow towards a
// centre, or towards a plane with an axis (simcore.Press).
type pressKeys struct {
	windowKeys
	Center   *geom.Vec3 `toml:"center"`
	Axis     *geom.Vec3 `toml:"axis"`
	Radius   *float64   `toml:"radius"`
	Pressure *float64   `toml:"pressure"`
}

// shapeKeys place a body, snow or collider: an analytic shape or a file.
type shapeKeys struct {
	Shape  string     `toml:"shape"`
	Center *geom.Vec3 `toml:"center"`
	Radius *float64   `toml:"radius"`
	Min    *geom.Vec3 `toml:"min"`
	Max    *geom.Vec3 `toml:"max"`
	Point  *geom.Vec3 `toml:"point"`
	Normal *geom.Vec3 `toml:"normal"`
	A      *geom.Vec3 `toml:"a"` // cylinder axis ends
	B      *geom.Vec3 `toml:"b"`
	Path   *string    `toml:"path"`  // mesh or VDB file, relative to the scene's folder
	Grid   *string    `toml:"grid"`  // VDB level set grid name (default "surface", else the first level set)
	Voxel  *float64   `toml:"voxel"` // a mesh collider is voxelized at this size (default h/2)
	Clip   *string    `toml:"clip"`  // a glTF mesh posed by this animation (default all together)...
	Time   *float64   `toml:"time"`  // ... at this time (s); without, its rest pose (an .abc: its first sample)
	Up     *string    `toml:"up"`    // a mesh file's up axis: "y" (default) or "z" (OBJ, STL, PLY)
	Scale  *float64   `toml:"scale"` // a mesh file's unit in metres (default 1; 0.01: centimetres)
}

type snowKeys struct {
	shapeKeys
	Material         *string    `toml:"material"`
	ParticlesPerCell *int       `toml:"particles_per_cell"`
	Pattern          *string    `toml:"pattern"`
	Seed             *int64     `toml:"seed"`
	Velocity         *geom.Vec3 `toml:"velocity"`
	Spin             *geom.Vec3 `toml:"spin"`
	NoiseScale       *float64   `toml:"noise_scale"`
	NoiseSeed        *int64     `toml:"noise_seed"`
	StiffnessNoise   *float64   `toml:"stiffness_noise"`
	StretchNoise     *float64   `toml:"stretch_noise"`
	ShellThickness   *float64   `toml:"shell_thickness"`
	ShellStiffness   *float64   `toml:"shell_stiffness"`
	ShellDensity     *float64   `toml:"shell_density"`
	ChunkSize        *float64   `toml:"chunk_size"`
	SeamWidth        *float64   `toml:"seam_width"`
	ChunkStrength    *float64   `toml:"chunk_strength"`
	SeamStrength     *float64   `toml:"seam_strength"`
	ChunkStiffness   *float64   `toml:"chunk_stiffness"`
	SeamStiffness    *float64   `toml:"seam_stiffness"`
}

type colliderKeys struct {
	shapeKeys
	Velocity *geom.Vec3 `toml:"velocity"`
	Friction *float64   `toml:"friction"`
	Mode     *string    `toml:"mode"`
	FPS      *float64   `toml:"fps"`   // a VDB sequence's frame rate (default: the files' own)
	Start    *float64   `toml:"start"` // the scene time of a VDB sequence's first file (default: its number / fps)
	Keys     []keyKeys  `toml:"key"`   // a rigid motion
}

// keyKeys place a rigid collider at a time: a translation and a rotation, given as a
// quaternion (x, y, z, w, as glTF writes it) or as an axis and an angle in degrees.
type keyKeys struct {
	Time        *float64    `toml:"time"`
	Translation *geom.Vec3  `toml:"translation"`
	Rotation    *[4]float64 `toml:"rotation"`
	Axis        *geom.Vec3  `toml:"axis"`
	Angle       *float64    `toml:"angle"`
}

// ReadFile reads the scene file at path: a regular file (a FIFO or a device such as
// /dev/zero is refused at once, naming it) of at most MaxFileSize bytes, refused by
// its size before it is read.
func ReadFile(path string) ([]byte, error) {
	return input.ReadFile(path, MaxFileSize)
}

// decode reads a scene's TOML. Errors say the line of a syntax error, or every key
// the format does not know. The text is read up to MaxFileSize bytes and checked
// for nesting and dotted keys the parser would choke on (checkText) before it is
// parsed.
func decode(r io.Reader) (*sceneFile, error) {
	text, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if err := checkText(text); err != nil {
		return nil, err
	}
	var f sceneFile
	md, err := toml.Decode(string(text), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("line %d: %s", pe.Position.Line, pe.Message)
		}
		return nil, err
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return nil, fmt.Errorf("unknown key %s (see README.md for the scene keys)", strings.Join(keys, ", "))
	}
	return &f, nil
}

// set copies an optional key's value into dst when the key is present.
func set[T any](dst *T, key *T) {
	if key != nil {
		*dst = *key
	}
}
