module snowtools

go 1.26

require (
	github.com/BurntSushi/toml v1.5.0 // indirect
	github.com/klauspost/compress v1.18.0 // indirect
)
