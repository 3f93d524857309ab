module snowtools

go 1.26

require (
	github.com/BurntSushi/toml v1.5.0
	github.com/hschendel/stl v1.0.4
	github.com/klauspost/compress v1.18.0
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/qmuntal/gltf v0.29.0
	gonum.org/v1/gonum v0.16.0
)
