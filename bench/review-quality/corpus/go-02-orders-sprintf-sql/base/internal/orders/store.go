package orders

import (
	"context"
	"database/sql"
)

type Order struct {
	ID     int64
	Status string
	Total  int64
}

type Store struct {
	db *sql.DB
}

func NewStore(db *sql.DB) *Store {
	return &Store{db: db}
}
