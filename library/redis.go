package library

import "fmt"

// redisStore is a library on a Redis server (being written).
type redisStore struct{ store }

func openRedis(where string, opts *Options) (*redisStore, error) {
	return nil, fmt.Errorf("library %s: Redis libraries are not built yet", redactURL(where))
}
