package teams

import (
	"context"
	"database/sql"
)

type Stats struct {
	db *sql.DB
}

func (s *Stats) TeamCount(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM teams").Scan(&n)
	return n, err
}
