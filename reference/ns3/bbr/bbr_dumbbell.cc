// nsim reference: one TcpBbr flow over s -(100 Mb/s, 1 ms)- r -(10 Mb/s, 19 ms, DropTail 100 p)- d
// in ns-3.37, 60 s. Prints, one per line:
//   "cwnd <time s> <bytes>"   on every congestion-window change,
//   "pace <time s> <bit/s>"   on every pacing-rate change,
//   "state <time s> <n>"      on every TcpCongState_t change (4 = CA_LOSS: a timeout),
//   "rx <time s> <bytes>"     every 100 ms (bytes received by the sink so far),
//   "q <time s> <packets> <bytes in flight>" every 1 ms (bottleneck queue and sender inflight).
// Settings chosen to match nsim's one-way TCP: 1000 B segments, no timestamps, SACK on, an ACK
// per segment (DelAckCount 1), initial window 10, classic recovery, pacing on (BBR needs it),
// receive/send buffers far above the BDP. Usage: bbr_dumbbell [--queue=100] [--run=1]
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include <iostream>

using namespace ns3;

static uint32_t g_inflight = 0;

static void CwndChange(uint32_t, uint32_t now)
{
    std::cout << "cwnd " << Simulator::Now().GetSeconds() << " " << now << "\n";
}

static void PacingChange(DataRate, DataRate now)
{
    std::cout << "pace " << Simulator::Now().GetSeconds() << " " << now.GetBitRate() << "\n";
}

static void StateChange(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    std::cout << "state " << Simulator::Now().GetSeconds() << " " << int(now) << "\n";
}

static void InflightChange(uint32_t, uint32_t now)
{
    g_inflight = now;
}

static void Connect()
{
    std::string sock = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/";
    Config::ConnectWithoutContext(sock + "CongestionWindow", MakeCallback(&CwndChange));
    Config::ConnectWithoutContext(sock + "PacingRate", MakeCallback(&PacingChange));
    Config::ConnectWithoutContext(sock + "CongState", MakeCallback(&StateChange));
    Config::ConnectWithoutContext(sock + "BytesInFlight", MakeCallback(&InflightChange));
}

static void Rx(Ptr<PacketSink> sink)
{
    std::cout << "rx " << Simulator::Now().GetSeconds() << " " << sink->GetTotalRx() << "\n";
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
}

static void SampleQueue(Ptr<QueueBase> q)
{
    std::cout << "q " << Simulator::Now().GetSeconds() << " " << q->GetNPackets() << " " << g_inflight << "\n";
    Simulator::Schedule(MilliSeconds(1), &SampleQueue, q);
}

int main(int argc, char* argv[])
{
    uint32_t queue = 100;
    uint32_t run = 1;
    CommandLine cmd;
    cmd.AddValue("queue", "bottleneck DropTail limit, packets", queue);
    cmd.AddValue("run", "ns-3 RngRun (BBR's random PROBE_BW start phase)", run);
    cmd.Parse(argc, argv);
    RngSeedManager::SetRun(run);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpBbr"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
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
    access.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    access.SetChannelAttribute("Delay", StringValue("1ms"));
    access.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("10000p"));
    bottleneck.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    bottleneck.SetChannelAttribute("Delay", StringValue("19ms"));
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
    // The device queue alone is the bottleneck buffer (no queue disc in front of it).
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

    Ptr<QueueBase> q = DynamicCast<PointToPointNetDevice>(b.Get(0))->GetQueue();
    Simulator::Schedule(Seconds(0.00001), &Connect);
    Simulator::Schedule(MilliSeconds(100), &Rx, DynamicCast<PacketSink>(sinkApp.Get(0)));
    Simulator::Schedule(MilliSeconds(1), &SampleQueue, q);
    Simulator::Stop(Seconds(60.0));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
