package session

import (
	"context"
	"time"
)

type Session struct {
	ID      string
	UserID  string
	Expires time.Time
}

type Store interface {
	Load(ctx context.Context, id string) (*Session, error)
}
