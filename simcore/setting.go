package simcore

import "fmt"

// A SettingError says which setting of a Config, Material, Press or Variation cannot
// work, so that a front end can point at it in its own terms: snowsim's scene files
// map Setting to their TOML keys. Setting is the name the paper or this package's
// documentation gives it ("flip_alpha", "theta_c", "sintering.rho_max").
type SettingError struct {
	Setting string
	Problem string // the value and what would work: "1.5: must be in [0, 1]"
}

func (e *SettingError) Error() string { return e.Setting + ": " + e.Problem }

// badSetting returns a SettingError with a formatted Problem.
func badSetting(setting, format string, args ...any) *SettingError {
	return &SettingError{Setting: setting, Problem: fmt.Sprintf(format, args...)}
}
