module superstep

go 1.26.8

require (
	github.com/go-zeromq/zmq4 v0.17.0
	github.com/traefik/yaegi v0.16.1
	golang.org/x/sys v0.28.0
)

require (
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	golang.org/x/sync v0.7.0 // indirect
	golang.org/x/text v0.15.0 // indirect
)
