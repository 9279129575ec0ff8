// nsim reference: one TcpNewReno flow over s -(100 Mb/s, 1 ms)- r -(10 Mb/s, 19 ms, DropTail
// 1000 p)- d in ns-3.37, 30 s, with PRR (TcpPrrRecovery, SSRB or CRB) or classic recovery
// (TcpClassicRecovery: RFC 6675 pipe with SACK). Losses come only from a drop list: the k-th
// data-carrying packet to arrive at d (1-based, retransmissions counted, as nsim's drop_list
// with `flow`) is dropped for each listed k; the buffer never overflows. With --loss=p the drop
// list gives way to uniform random loss (dumbbell.h's AddRandomLoss, RngRun --run).
// Prints one line per event:
//   "tx <time s> <seq>"        every data segment sent (seq = 0-based segment number),
//   "state <time s> <state>"   every congestion-state change (ns-3 TcpCongState_t),
//   "cwnd <time s> <bytes>", "inflight <time s> <bytes>", "rx <time s> <bytes>" (sink total,
//   every 100 ms).
// Settings match nsim's one-way TCP: 1000 B segments, no timestamps, SACK on, an ACK per
// segment, initial window 10, 200 ms minimum RTO, buffers far above the BDP.
// Usage: prr_dumbbell --recovery=prr|crb|classic [--loss=0.01 --run=1]
#include "../dumbbell.h"
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
    double loss = 0.0;
    uint32_t run = 1;
    CommandLine cmd;
    cmd.AddValue("recovery", "prr (SSRB), crb or classic", recovery);
    cmd.AddValue("loss", "uniform packet loss probability on r -> d instead of the drop list", loss);
    cmd.AddValue("run", "ns-3 RngRun (the loss draws)", run);
    cmd.Parse(argc, argv);
    RngSeedManager::SetRun(run);

    std::string rec = recovery == "classic" ? "ns3::TcpClassicRecovery" : "ns3::TcpPrrRecovery";
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName(rec)));
    Config::SetDefault("ns3::TcpPrrRecovery::ReductionBound", StringValue(recovery == "crb" ? "CRB" : "SSRB"));
    NsimTcpDefaults();
    NetDeviceContainer bottleneck;
    Ptr<PacketSink> sink = InstallDumbbell(1000, bottleneck);

    if (loss > 0)
    {
        AddRandomLoss(bottleneck, loss);
    }
    else
    {
        Ptr<DataDropList> drops = CreateObject<DataDropList>();
        // Three losses in one window early on, then single losses every 1500 packets (the
        // twin's list is the same, plus one for nsim's SYN).
        for (uint32_t s : {300, 303, 306, 1500, 3000, 4500, 6000, 7500, 9000, 10500, 12000, 13500, 15000, 16500, 18000, 19500, 21000, 22500, 24000, 25500, 27000, 28500, 30000})
        {
            drops->pending.insert(s);
        }
        bottleneck.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(drops));
    }

    Simulator::Schedule(Seconds(0.00001), &Trace);
    Simulator::Schedule(MilliSeconds(100), &Rx, sink);
    Simulator::Stop(Seconds(30.0));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
