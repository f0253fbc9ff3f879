package health

import (
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 3 * time.Second}

type Result struct {
	URL string
	OK  bool
}
