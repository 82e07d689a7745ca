package main

import (
	"os"

	"superstep/topology/fattree"
	"superstep/topology/infiniband"
)

func main() {
	f, _ := fattree.Build(fattree.KAry(4))
	if err := infiniband.WriteIBSimNet(os.Stdout, f); err != nil {
		panic(err)
	}
}
