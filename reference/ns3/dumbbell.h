// Shared by the reference programs (bbr/, cubic/, cubic_flows/, cubic_hystart/, prr/): ns-3.37
// TCP defaults matched to nsim's one-way TCP, and bulk flows over s -(100 Mb/s, 1 ms)- r
// -(10 Mb/s, 19 ms, DropTail)- d (the links' rates and delays, the number of flows and their
// start spacing may be given), and uniform random loss on the bottleneck.
#pragma once
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include <string>
#include <vector>

namespace ns3
{

// 1000 B segments, no timestamps, SACK on, an ACK per segment (DelAckCount 1), initial window
// 10, 200 ms minimum RTO, send/receive buffers far above the BDP.
inline void NsimTcpDefaults()
{
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1000));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
}

// The dumbbell with `flows` bulk senders on node 0 (flow i to port 5000 + i, starting at
// i * `spacing`) and their sinks on node 2; the bottleneck's device queue (`queue` packets) is
// its only buffer. Returns the sinks in flow order; `bottleneck` gets the r-d devices (index 1
// receives at d). With one flow it builds what InstallDumbbell always built, object for object.
inline std::vector<Ptr<PacketSink>> InstallDumbbellFlows(uint32_t queue, NetDeviceContainer& bottleneck,
                                                         uint32_t flows, Time spacing,
                                                         const std::string& accessRate = "100Mbps",
                                                         const std::string& bottleneckDelay = "19ms",
                                                         const std::string& bottleneckRate = "10Mbps",
                                                         const std::string& accessDelay = "1ms")
{
    NodeContainer nodes;
    nodes.Create(3);
    PointToPointHelper access, link;
    access.SetDeviceAttribute("DataRate", StringValue(accessRate));
    access.SetChannelAttribute("Delay", StringValue(accessDelay));
    access.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("10000p"));
    link.SetDeviceAttribute("DataRate", StringValue(bottleneckRate));
    link.SetChannelAttribute("Delay", StringValue(bottleneckDelay));
    link.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(std::to_string(queue) + "p"));
    NetDeviceContainer a = access.Install(nodes.Get(0), nodes.Get(1));
    bottleneck = link.Install(nodes.Get(1), nodes.Get(2));

    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper ip;
    ip.SetBase("10.1.1.0", "255.255.255.0");
    ip.Assign(a);
    ip.SetBase("10.1.2.0", "255.255.255.0");
    Ipv4InterfaceContainer bi = ip.Assign(bottleneck);
    // The device queue alone is the bottleneck buffer (no queue disc in front of it; Assign
    // installed the default one).
    TrafficControlHelper tch;
    tch.Uninstall(bottleneck);
    tch.Uninstall(a);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t i = 0; i < flows; i++)
    {
        uint16_t port = 5000 + i;
        BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(bi.GetAddress(1), port));
        src.SetAttribute("MaxBytes", UintegerValue(0));
        src.Install(nodes.Get(0)).Start(spacing * i);
        PacketSinkHelper dst("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApp = dst.Install(nodes.Get(2));
        sinkApp.Start(Seconds(0.0));
        sinks.push_back(DynamicCast<PacketSink>(sinkApp.Get(0)));
    }
    return sinks;
}

// One bulk flow starting at 0 on the dumbbell above; returns its sink.
inline Ptr<PacketSink> InstallDumbbell(uint32_t queue, NetDeviceContainer& bottleneck,
                                       const std::string& accessRate = "100Mbps",
                                       const std::string& bottleneckDelay = "19ms")
{
    return InstallDumbbellFlows(queue, bottleneck, 1, Seconds(0.0), accessRate, bottleneckDelay)[0];
}

// Uniform random loss on the bottleneck's data direction: each packet arriving at d (after its
// transmission and propagation) is lost with probability `rate` (RateErrorModel per packet on
// the receiving device; nsim's `error` on r->d with the default `error_at = "transmit"` loses
// the same packets after the same link time).
inline void AddRandomLoss(NetDeviceContainer& bottleneck, double rate)
{
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
    em->SetAttribute("ErrorRate", DoubleValue(rate));
    bottleneck.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
}

} // namespace ns3
