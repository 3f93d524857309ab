module snowtools

go 1.26

require (
	github.com/BurntSushi/toml v1.5.0
	github.com/klauspost/compress v1.18.0
	gonum.org/v1/gonum v0.16.0
)
