// nsim reference: one TcpNewReno flow over s -(100 Mb/s, 1 ms)- r -(10 Mb/s, 19 ms, DropTail
// 1000 p)- d in ns-3.37, 30 s, with PRR (TcpPrrRecovery, SSRB or CRB) or classic recovery
// (TcpClassicRecovery: RFC 6675 pipe with SACK). Losses come only from a drop list: the k-th
// data-carrying packet to arrive at d (1-based, retransmissions counted, as nsim's drop_list
// with `flow`) is dropped for each listed k; the buffer never overflows. Prints one line per event:
//   "tx <time s> <seq>"        every data segment sent (seq = 0-based segment number),
//   "state <time s> <state>"   every congestion-state change (ns-3 TcpCongState_t),
//   "cwnd <time s> <bytes>", "inflight <time s> <bytes>", "rx <time s> <bytes>" (sink total,
//   every 100 ms).
// Settings match nsim's one-way TCP: 1000 B segments, no timestamps, SACK on, an ACK per
// segment, initial window 10, 200 ms minimum RTO, buffers far above the BDP.
// Usage: prr_dumbbell --recovery=prr|crb|classic
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include <iostream>
#include <set>

using namespace ns3;

// Drops the k-th data-carrying TCP packet to arrive, for each k listed.
class DataDropList : public ErrorModel
{
  public:
    std::set<uint32_t> pending;
    uint32_t seen = 0;

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        Ptr<Packet> copy = p->Copy();
        PppHeader ppp;
        Ipv4Header ip;
        TcpHeader tcp;
        copy->RemoveHeader(ppp);
        copy->RemoveHeader(ip);
        if (ip.GetProtocol() != 6)
        {
            return false;
        }
        copy->PeekHeader(tcp);
        if (copy->GetSize() <= tcp.GetSerializedSize())
        {
            return false;
        }
        return pending.erase(++seen) > 0;
    }

    void DoReset() override
    {
    }
};

static void Tx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() > 0)
    {
        std::cout << "tx " << Simulator::Now().GetSeconds() << " " << (h.GetSequenceNumber().GetValue() - 1) / 1000 << "\n";
    }
}

static void State(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    std::cout << "state " << Simulator::Now().GetSeconds() << " " << TcpSocketState::TcpCongStateName[now] << "\n";
}

static void Cwnd(uint32_t, uint32_t now)
{
    std::cout << "cwnd " << Simulator::Now().GetSeconds() << " " << now << "\n";
}

static void Inflight(uint32_t, uint32_t now)
{
    std::cout << "inflight " << Simulator::Now().GetSeconds() << " " << now << "\n";
}

static void Trace()
{
    std::string s = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/";
    Config::ConnectWithoutContext(s + "Tx", MakeCallback(&Tx));
    Config::ConnectWithoutContext(s + "CongState", MakeCallback(&State));
    Config::ConnectWithoutContext(s + "CongestionWindow", MakeCallback(&Cwnd));
    Config::ConnectWithoutContext(s + "BytesInFlight", MakeCallback(&Inflight));
}

static void Rx(Ptr<PacketSink> sink)
{
    std::cout << "rx " << Simulator::Now().GetSeconds() << " " << sink->GetTotalRx() << "\n";
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
}

int main(int argc, char* argv[])
{
    std::string recovery = "prr";
    CommandLine cmd;
    cmd.AddValue("recovery", "prr (SSRB), crb or classic", recovery);
    cmd.Parse(argc, argv);

    std::string rec = recovery == "classic" ? "ns3::TcpClassicRecovery" : "ns3::TcpPrrRecovery";
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName(rec)));
    Config::SetDefault("ns3::TcpPrrRecovery::ReductionBound", StringValue(recovery == "crb" ? "CRB" : "SSRB"));
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
    bottleneck.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1000p"));
    NetDeviceContainer a = access.Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer b = bottleneck.Install(nodes.Get(1), nodes.Get(2));

    Ptr<DataDropList> drops = CreateObject<DataDropList>();
    // Three losses in one window early on, then single losses every 1500 packets (the twin's
    // list is the same, plus one for nsim's SYN).
    for (uint32_t s : {300, 303, 306, 1500, 3000, 4500, 6000, 7500, 9000, 10500, 12000, 13500, 15000, 16500, 18000, 19500, 21000, 22500, 24000, 25500, 27000, 28500, 30000})
    {
        drops->pending.insert(s);
    }
    b.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(drops));

    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper ip;
    ip.SetBase("10.1.1.0", "255.255.255.0");
    ip.Assign(a);
    ip.SetBase("10.1.2.0", "255.255.255.0");
    Ipv4InterfaceContainer bi = ip.Assign(b);
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

    Simulator::Schedule(Seconds(0.00001), &Trace);
    Simulator::Schedule(MilliSeconds(100), &Rx, DynamicCast<PacketSink>(sinkApp.Get(0)));
    Simulator::Stop(Seconds(30.0));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
