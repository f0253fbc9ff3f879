package flags

import (
	"encoding/json"
	"os"
)

type Flags map[string]bool

func (f Flags) Enabled(name string) bool {
	return f[name]
}
