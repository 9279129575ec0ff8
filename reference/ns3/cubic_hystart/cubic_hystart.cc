// nsim reference: slow start of one TcpCubic flow with HyStart (ns-3.37's, Ha & Rhee's, as Linux
// tcp_cubic.c) over s -(1 Gb/s, 1 ms)- r -(10 Mb/s, 49 ms, DropTail 500 p)- d, 10 s. Prints
// "cwnd <time s> <bytes>" and "ssthresh <time s> <bytes>" on every change and "rx <time s>
// <bytes>" once per 100 ms (bytes received so far).
// Settings chosen to match nsim's one-way TCP: 1000 B segments, no timestamps, SACK on, an ACK
// per segment (DelAckCount 1), initial window 10, classic recovery (not PRR), buffers far above
// the BDP. Usage: cubic_hystart [--detect=3] [--delayMax=1000]  (detect 1 train, 2 delay, 3 both;
// delayMax in ms: ns-3's default 1000, Linux's 16)
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include <iostream>

using namespace ns3;

static void CwndChange(uint32_t, uint32_t now)
{
    std::cout << "cwnd " << Simulator::Now().GetSeconds() << " " << now << "\n";
}

static void SsthreshChange(uint32_t, uint32_t now)
{
    std::cout << "ssthresh " << Simulator::Now().GetSeconds() << " " << now << "\n";
}

static void TraceCwnd()
{
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/CongestionWindow",
                                  MakeCallback(&CwndChange));
    Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/SlowStartThreshold",
                                  MakeCallback(&SsthreshChange));
}

static void Rx(Ptr<PacketSink> sink)
{
    std::cout << "rx " << Simulator::Now().GetSeconds() << " " << sink->GetTotalRx() << "\n";
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
}

int main(int argc, char* argv[])
{
    uint32_t queue = 500, detect = 3, delayMax = 1000;
    CommandLine cmd;
    cmd.AddValue("queue", "bottleneck DropTail limit, packets", queue);
    cmd.AddValue("detect", "HyStart detection: 1 ACK train, 2 delay, 3 both", detect);
    cmd.AddValue("delayMax", "HyStart's upper clamp of the delay threshold, ms", delayMax);
    cmd.Parse(argc, argv);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpCubic"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(true));
    Config::SetDefault("ns3::TcpCubic::HyStartDetect", IntegerValue(detect));
    Config::SetDefault("ns3::TcpCubic::HyStartDelayMax", TimeValue(MilliSeconds(delayMax)));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1000));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 24));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));

    NodeContainer nodes;
    nodes.Create(3);
    PointToPointHelper access, bottleneck;
    access.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    access.SetChannelAttribute("Delay", StringValue("1ms"));
    access.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("10000p"));
    bottleneck.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    bottleneck.SetChannelAttribute("Delay", StringValue("49ms"));
    bottleneck.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(std::to_string(queue) + "p"));
    NetDeviceContainer a = access.Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer b = bottleneck.Install(nodes.Get(1), nodes.Get(2));

    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper ip;
    ip.SetBase("10.1.1.0", "255.255.255.0");
    ip.Assign(a);
    ip.SetBase("10.1.2.0", "255.255.255.0");
    Ipv4InterfaceContainer bi = ip.Assign(b);
    // The device queue alone is the bottleneck buffer (no queue disc in front of it; Assign
    // installed the default one).
    TrafficControlHelper tch;
    tch.Uninstall(b);
    tch.Uninstall(a);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    uint16_t port = 5000;
    BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(bi.GetAddress(1), port));
    src.SetAttribute("MaxBytes", UintegerValue(0));
    src.Install(nodes.Get(0)).Start(Seconds(0.0));
    PacketSinkHelper dst("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = dst.Install(nodes.Get(2));
    sinkApp.Start(Seconds(0.0));

    Simulator::Schedule(Seconds(0.00001), &TraceCwnd);
    Simulator::Schedule(MilliSeconds(100), &Rx, DynamicCast<PacketSink>(sinkApp.Get(0)));
    Simulator::Stop(Seconds(10.0));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
