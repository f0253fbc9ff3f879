package upload

import (
	"errors"
	"path/filepath"
	"strings"
)

var ErrTooLarge = errors.New("file larger than 10 MiB")
var ErrType = errors.New("only PNG and JPEG images")

func Check(name string, size int64) error {
	if size > 10<<20 {
		return ErrTooLarge
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".jpg", ".jpeg":
		return nil
	}
	return ErrType
}
