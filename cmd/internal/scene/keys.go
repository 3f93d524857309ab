package scene

import (
	"errors"
	"fmt"

	"snowtools/simcore"
)

// keyError is a mistake at a scene key; Read adds the file's name in front.
func keyError(key, format string, args ...any) error {
	return fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...))
}

// configKeys are the scene keys of simcore.Config's settings, by the names its
// SettingErrors give them.
var configKeys = map[string]string{
	"h":               "domain.h",
	"domain":          "domain",
	"cfl":             "time.cfl",
	"wave_cells":      "time.wave_cells",
	"max_dt":          "time.max_dt",
	"min_dt":          "time.min_dt",
	"flip_alpha":      "solver.flip_alpha",
	"transfer":        "solver.transfer",
	"flip_alpha_step": "solver.flip_alpha_step",
	"threads":         "solver.threads",
	"gravity":         "solver.gravity",
	"gravity_start":   "solver.gravity_start",
	"damping":         "solver.damping",
	"sleep_speed":     "solver.sleep_speed",
	"sleep_time":      "solver.sleep_time",
	"integrator":      "solver.integrator",
	"beta":            "solver.beta",
	"tolerance":       "solver.tolerance",
	"max_iterations":  "solver.max_iterations",
	"sinter_start":    "sintering.start",
	"sinter_end":      "sintering.end",
}

// configKey returns the scene key of a Config setting.
func configKey(setting string) string {
	if key, ok := configKeys[setting]; ok {
		return key
	}
	return setting
}

// under returns the key of a setting of a table whose settings are named as its keys
// are (materials, presses, snow volumes): the table's key, a dot and the setting's name.
func under(table string) func(setting string) string {
	return func(setting string) string { return table + "." + setting }
}

// atKey rewrites a solver's validation error to name the scene key it came from,
// which key gives for the setting the error names. Other errors pass unchanged.
func atKey(err error, key func(setting string) string) error {
	var se *simcore.SettingError
	if errors.As(err, &se) {
		return keyError(key(se.Setting), "%s", se.Problem)
	}
	return err
}
