package config

import (
	"os"
	"time"
)

func Timeout() (time.Duration, error) {
	value, ok := os.LookupEnv("APP_TIMEOUT")
	if !ok {
		return 30 * time.Second, nil
	}
	return parse(value)
}
