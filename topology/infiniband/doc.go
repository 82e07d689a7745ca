// Package infiniband reads what InfiniBand tools say about a real fabric
// and writes what InfiniBand simulators read: ReadIBNetDiscover turns the
// output of ibnetdiscover (infiniband-diags) into a fattree.Discovered,
// which fattree.Infer turns into a Fabric, and WriteIBSimNet writes a
// Fabric as a net file of the ibsim simulator.
package infiniband
