// Shared by the reference programs (bbr/, cubic/, cubic_hystart/, prr/): ns-3.37 TCP defaults
// matched to nsim's one-way TCP, and one bulk flow over s -(100 Mb/s, 1 ms)- r -(10 Mb/s,
// 19 ms, DropTail)- d (access rate and bottleneck delay may be given).
#pragma once
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include <string>

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

// The dumbbell with a bulk sender on node 0 and its sink on node 2; the bottleneck's device
// queue (`queue` packets) is its only buffer. Returns the sink; `bottleneck` gets the r-d
// devices (index 1 receives at d).
inline Ptr<PacketSink> InstallDumbbell(uint32_t queue, NetDeviceContainer& bottleneck,
                                       const std::string& accessRate = "100Mbps",
                                       const std::string& bottleneckDelay = "19ms")
{
    NodeContainer nodes;
    nodes.Create(3);
    PointToPointHelper access, link;
    access.SetDeviceAttribute("DataRate", StringValue(accessRate));
    access.SetChannelAttribute("Delay", StringValue("1ms"));
    access.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("10000p"));
    link.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
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

    uint16_t port = 5000;
    BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(bi.GetAddress(1), port));
    src.SetAttribute("MaxBytes", UintegerValue(0));
    src.Install(nodes.Get(0)).Start(Seconds(0.0));
    PacketSinkHelper dst("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = dst.Install(nodes.Get(2));
    sinkApp.Start(Seconds(0.0));
    return DynamicCast<PacketSink>(sinkApp.Get(0));
}

} // namespace ns3
