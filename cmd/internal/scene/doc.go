// Package scene reads snowsim's TOML scene files (README.md documents every key) in
// three steps, each with its own job:
//
//   - decode (file.go, file_ground.go): the TOML text into plain tables, one field a
//     key, pointers where "absent" and "zero" differ; a key the format does not know
//     is an error.
//   - check values (values.go): every number of every table, in one walk over the
//     decoded tables: NaN and infinities are refused, and so are the absurd
//     magnitudes of valueRanges (a press over 1e8 Pa, E0 over 1e12 Pa, a density
//     that is not positive or above 1e4 kg/m^3), each naming its key and range.
//   - load: the tables into the solvers' types (simcore.Config and Source,
//     heightfield.Config, colliders), with the defaults of absent keys, reading the
//     files the scene names (meshes and VDB level sets for snow and colliders, VDB
//     sequences for deforming colliders, height maps for the ground).
//   - validate: each part, once loaded, by the solver's own checks; their
//     *simcore.SettingError names the setting, and keys.go maps it to the scene key
//     it came from. The scene checks only what the solver cannot see: required keys,
//     names, files, and its own limits.
//
// Every error names the scene file and the key: "scene.toml: snow[2].radius: -1
// must be > 0". Override (the -set flag) edits the text before it is decoded.
package scene
