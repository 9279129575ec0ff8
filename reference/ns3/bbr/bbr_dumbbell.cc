// nsim reference: TcpBbr flows (one by default; flow i starting at i * `spacing`) over s -(100
// Mb/s, 1 ms)- r -(10 Mb/s, 19 ms, DropTail 100 p)- d in ns-3.37 (rates and delays may be given),
// 60 s unless given. Prints, one per line:
//   "cwnd <time s> <flow> <bytes>"   on every congestion-window change,
//   "pace <time s> <flow> <bit/s>"   on every pacing-rate change,
//   "state <time s> <flow> <n>"      on every TcpCongState_t change (4 = CA_LOSS: a timeout),
//   "rx <time s> <flow> <bytes>"     every 100 ms (bytes received by the sink so far),
//   "q <time s> <packets> <bytes in flight>" every `sample-us` microseconds, 1 ms unless given
//   (bottleneck queue and the bytes in flight of all flows).
// Settings chosen to match nsim's one-way TCP: 1000 B segments, no timestamps, SACK on, an ACK
// per segment (DelAckCount 1), initial window 10, classic recovery, pacing on (BBR needs it),
// receive/send buffers far above the BDP. Usage: bbr_dumbbell [--queue=100] [--run=1]
//   [--flows=4 --spacing=1] [--duration=60] [--rate=1Gbps --delay=100us --access=10Gbps
//   --access-delay=10us --sample-us=100]
#include "../dumbbell.h"
#include <iostream>

using namespace ns3;

static std::vector<uint32_t> g_inflight;

static void CwndChange(uint32_t flow, uint32_t, uint32_t now)
{
    std::cout << "cwnd " << Simulator::Now().GetSeconds() << " " << flow << " " << now << "\n";
}

static void PacingChange(uint32_t flow, DataRate, DataRate now)
{
    std::cout << "pace " << Simulator::Now().GetSeconds() << " " << flow << " " << now.GetBitRate() << "\n";
}

static void StateChange(uint32_t flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    std::cout << "state " << Simulator::Now().GetSeconds() << " " << flow << " " << int(now) << "\n";
}

static void InflightChange(uint32_t flow, uint32_t, uint32_t now)
{
    g_inflight[flow] = now;
}

// Flow i's socket is node 0's i-th: the flows start one after the other.
static void Connect(uint32_t flow)
{
    std::string sock = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/" + std::to_string(flow) + "/";
    Config::ConnectWithoutContext(sock + "CongestionWindow", MakeBoundCallback(&CwndChange, flow));
    Config::ConnectWithoutContext(sock + "PacingRate", MakeBoundCallback(&PacingChange, flow));
    Config::ConnectWithoutContext(sock + "CongState", MakeBoundCallback(&StateChange, flow));
    Config::ConnectWithoutContext(sock + "BytesInFlight", MakeBoundCallback(&InflightChange, flow));
}

static void Rx(std::vector<Ptr<PacketSink>> sinks)
{
    for (size_t i = 0; i < sinks.size(); i++)
    {
        std::cout << "rx " << Simulator::Now().GetSeconds() << " " << i << " " << sinks[i]->GetTotalRx() << "\n";
    }
    Simulator::Schedule(MilliSeconds(100), &Rx, sinks);
}

static void SampleQueue(Ptr<QueueBase> q, Time every)
{
    uint32_t inflight = 0;
    for (uint32_t f : g_inflight)
    {
        inflight += f;
    }
    std::cout << "q " << Simulator::Now().GetSeconds() << " " << q->GetNPackets() << " " << inflight << "\n";
    Simulator::Schedule(every, &SampleQueue, q, every);
}

int main(int argc, char* argv[])
{
    uint32_t queue = 100;
    uint32_t run = 1;
    uint32_t flows = 1;
    double spacing = 1.0, duration = 60.0;
    uint32_t sampleUs = 1000;
    std::string rate = "10Mbps", delay = "19ms", access = "100Mbps", accessDelay = "1ms";
    CommandLine cmd;
    cmd.AddValue("queue", "bottleneck DropTail limit, packets", queue);
    cmd.AddValue("run", "ns-3 RngRun (BBR's random PROBE_BW start phase)", run);
    cmd.AddValue("flows", "number of BBR flows", flows);
    cmd.AddValue("spacing", "start of flow i is i * spacing, seconds", spacing);
    cmd.AddValue("duration", "seconds", duration);
    cmd.AddValue("sample-us", "queue and flight sampling interval, microseconds", sampleUs);
    cmd.AddValue("rate", "bottleneck rate", rate);
    cmd.AddValue("delay", "bottleneck one-way delay", delay);
    cmd.AddValue("access", "access link rate", access);
    cmd.AddValue("access-delay", "access link one-way delay", accessDelay);
    cmd.Parse(argc, argv);
    RngSeedManager::SetRun(run);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpBbr"));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
    NsimTcpDefaults();

    NetDeviceContainer b;
    std::vector<Ptr<PacketSink>> sinks = InstallDumbbellFlows(queue, b, flows, Seconds(spacing), access, delay, rate, accessDelay);
    g_inflight.assign(flows, 0);

    Ptr<QueueBase> q = DynamicCast<PointToPointNetDevice>(b.Get(0))->GetQueue();
    for (uint32_t i = 0; i < flows; i++)
    {
        Simulator::Schedule(Seconds(spacing * i + 0.00001), &Connect, i);
    }
    Simulator::Schedule(MilliSeconds(100), &Rx, sinks);
    Simulator::Schedule(MicroSeconds(sampleUs), &SampleQueue, q, MicroSeconds(sampleUs));
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
