package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// parse reads "90s", "15m" or "2h"; a bare number is seconds.
func parse(text string) (time.Duration, error) {
	text = strings.TrimSpace(text)
	if n, err := strconv.Atoi(text); err == nil {
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		return 0, fmt.Errorf("duration %q: %w", text, err)
	}
	return d, nil
}
