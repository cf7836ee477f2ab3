// The self-play generator: iago's rules, evaluation and a moderate search, on the GPU
// (built with nvcc) or the CPU (the same source built with a C++ compiler), writing game
// records (IAGOGAM1) and training features (IAGOFEA1). See gpu/README.md.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 -o selfplay gpu/selfplay.cu
//   c++ -x c++ -O2 -std=c++17 -pthread -o selfplay gpu/selfplay.cu
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "search.h"

static const char* USAGE =
    "usage: selfplay MODE [OPTIONS]\n"
    "modes:\n"
    "  perft N                      leaves N plies deep from the start (iago perft N)\n"
    "  eval                         the evaluation of each position string on stdin, in\n"
    "                               hundredths of a disc for the side to move (iago's GTP eval)\n"
    "  solve FILE.obf               the exact value of each position: index, empties, value,\n"
    "                               best move, nodes\n"
    "  play --games N --out FILE    self-play games to an IAGOGAM1 file\n"
    "       [--seed S] [--depth D] [--exact E] [--random R] [--openings FILE] [--seconds T]\n"
    "       [--hard-seconds H]      no game starts after T s, nor one that its thread's last\n"
    "       [--abandoned FILE]      game says would not end by H s; games still going at H s\n"
    "                               are abandoned, left out, and their numbers written to FILE\n"
    "  expand --in GAMES --out FEATURES [--labels FILE] [--all]\n"
    "                               training features (IAGOFEA1) of the records' positions;\n"
    "                               --labels also writes them as an `iago label` file\n"
    "  check GAMES [--solve K]      replays every record (moves legal, result right) and\n"
    "                               re-solves the solve point of the first K solved games\n"
    "  positions GAMES [--every K] [--min-empties A] [--max-empties B]\n"
    "                               position strings of the records' positions\n"
    "  head GAMES --games K [--skip S] [--compact | --coded] --out FILE\n"
    "                               K records after the first S (default 0): the first K;\n"
    "                               --compact writes IAGOGAM2 (each move's rank), --coded\n"
    "                               IAGOGAM3 (the ranks range-coded, as iago writes)\n"
    "  canonical --out FILE         the tied index of every weight index (IAGOCAN1: the\n"
    "                               magic, u32 stage_len, stage_len u32), for gpu/fit.py\n"
    "common options: --weights FILE (IAGOPAT2, default\n"
    "  crates/core/src/othello/eval/weights/patterns.bin), --threads N (CPU), --device cpu|gpu\n";

static void fail(const char* format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "selfplay: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
  exit(2);
}

static double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Options: `--name value` pairs and bare flags; positional arguments in order.
struct Args {
  std::map<std::string, std::string> named;
  std::vector<std::string> positional;
  std::vector<std::string> flags;

  Args(int argc, char** argv, const std::vector<std::string>& flag_names) {
    for (int i = 2; i < argc; i++) {
      std::string arg = argv[i];
      if (arg.rfind("--", 0) == 0) {
        if (std::find(flag_names.begin(), flag_names.end(), arg) != flag_names.end()) {
          flags.push_back(arg);
        } else if (i + 1 < argc) {
          named[arg] = argv[++i];
        } else {
          fail("%s needs a value", arg.c_str());
        }
      } else {
        positional.push_back(arg);
      }
    }
  }
  bool flag(const char* name) const {
    return std::find(flags.begin(), flags.end(), name) != flags.end();
  }
  std::string text(const char* name, const char* fallback) const {
    auto it = named.find(name);
    return it == named.end() ? fallback : it->second;
  }
  long long number(const char* name, long long fallback, long long low, long long high) const {
    auto it = named.find(name);
    if (it == named.end()) return fallback;
    char* end = nullptr;
    const long long value = strtoll(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != 0 || value < low || value > high)
      fail("%s: %s is not a number from %lld to %lld", name, it->second.c_str(), low, high);
    return value;
  }
  double real(const char* name, double fallback) const {
    auto it = named.find(name);
    if (it == named.end()) return fallback;
    char* end = nullptr;
    const double value = strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != 0 || !(value >= 0)) fail("%s: %s is not a number", name, it->second.c_str());
    return value;
  }
  void only(const std::vector<std::string>& allowed) const {
    for (auto& kv : named)
      if (std::find(allowed.begin(), allowed.end(), kv.first) == allowed.end())
        fail("unknown option %s (try `selfplay help`)", kv.first.c_str());
  }
};

static bool use_gpu(const Args& args) {
  const std::string device = args.text("--device", "cpu");
  if (device == "cpu") return false;
  if (device != "gpu") fail("--device: %s is not cpu or gpu", device.c_str());
#ifndef __CUDACC__
  fail("--device gpu: this build is the CPU one (build with nvcc for the GPU)");
#endif
  return true;
}

static int thread_count(const Args& args) {
  const int hardware = (int)std::max(1u, std::thread::hardware_concurrency());
  return (int)args.number("--threads", hardware, 1, 1024);
}

// Runs work(i) for i in 0..count over `threads` threads, each taking the next index.
template <class Work>
static void parallel_for(long long count, int threads, Work work) {
  std::atomic<long long> next(0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; t++)
    pool.emplace_back([&]() {
      for (long long i; (i = next.fetch_add(1)) < count;) work(i);
    });
  for (auto& thread : pool) thread.join();
}

// ---- Positions and files -------------------------------------------------------------

struct Position {
  u64 player, opponent;
  bool black_to_move;
};

static const char* SQUARE_NAMES = "abcdefgh";

static std::string square_name(int sq) {
  return std::string(1, SQUARE_NAMES[sq % 8]) + std::string(1, (char)('1' + sq / 8));
}

// A position string (iago's): 64 squares a1..h8 (X black, O white, - empty; also
// x * B b, o 0 W w, . _), spaces ignored, then the side to move (X or O).
static bool parse_position(const std::string& text, Position& pos) {
  u64 black = 0, white = 0;
  int square = 0;
  char side = 0;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r') continue;
    if (square == 64) {
      if (side) return false;
      side = c;
      continue;
    }
    if (strchr("Xx*Bb", c)) black |= 1ULL << square;
    else if (strchr("Oo0Ww", c)) white |= 1ULL << square;
    else if (!strchr("-._", c)) return false;
    square++;
  }
  if (square != 64) return false;
  if (side == 'X' || side == 'x' || side == 'B' || side == 'b' || side == '*') {
    pos = {black, white, true};
  } else if (side == 'O' || side == 'o' || side == 'W' || side == 'w' || side == '0') {
    pos = {white, black, false};
  } else {
    return false;
  }
  return true;
}

static std::string format_position(const Position& pos) {
  const u64 black = pos.black_to_move ? pos.player : pos.opponent;
  const u64 white = pos.black_to_move ? pos.opponent : pos.player;
  std::string out;
  for (int sq = 0; sq < 64; sq++) out += (black >> sq & 1) ? 'X' : (white >> sq & 1) ? 'O' : '-';
  out += pos.black_to_move ? " X" : " O";
  return out;
}

static std::vector<unsigned char> read_file(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) fail("%s: cannot open", path.c_str());
  unsigned char head[2] = {0, 0};
  const size_t got_head = fread(head, 1, 2, f);
  fclose(f);
  // A gzip file (magic 1f 8b) is read through gzip.
  const bool gzip = got_head == 2 && head[0] == 0x1f && head[1] == 0x8b;
  if (gzip) {
    if (path.find('\'') != std::string::npos) fail("%s: a quote in the name", path.c_str());
    const std::string command = "gzip -dc '" + path + "'";
    f = popen(command.c_str(), "r");
  } else {
    f = fopen(path.c_str(), "rb");
  }
  if (!f) fail("%s: cannot open", path.c_str());
  std::vector<unsigned char> bytes;
  unsigned char buffer[1 << 16];
  size_t got;
  while ((got = fread(buffer, 1, sizeof buffer, f)) > 0) bytes.insert(bytes.end(), buffer, buffer + got);
  if (gzip ? pclose(f) != 0 : fclose(f) != 0) fail("%s: read error", path.c_str());
  return bytes;
}

// Writes `bytes` to `path` through a temporary name, so that a failed run leaves no
// truncated file under the real name. The temporary file is made new (O_EXCL, no link
// followed) at a random name beside the output, as iago's own writer makes its own, so
// that a link planted beside the output never points the write elsewhere.
class OutFile {
 public:
  explicit OutFile(const std::string& path) : path_(path) {
    for (int attempt = 0; attempt < 16 && !f_; attempt++) {
      temp_ = path + ".tmp-" + random_hex();
      const int fd = open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd >= 0) f_ = fdopen(fd, "wb");
    }
    if (!f_) fail("%s: cannot create a temporary file beside it", path_.c_str());
  }
  void write(const void* data, size_t size) {
    if (size && fwrite(data, 1, size, f_) != size) fail("%s: write error", temp_.c_str());
  }
  void write_at(long offset, const void* data, size_t size) {
    const long here = ftell(f_);
    if (fseek(f_, offset, SEEK_SET) != 0) fail("%s: seek error", temp_.c_str());
    write(data, size);
    if (fseek(f_, here, SEEK_SET) != 0) fail("%s: seek error", temp_.c_str());
  }
  void close() {
    if (fclose(f_) != 0) fail("%s: write error", temp_.c_str());
    if (rename(temp_.c_str(), path_.c_str()) != 0) fail("%s: cannot rename", path_.c_str());
  }

 private:
  // 16 hex digits from /dev/urandom.
  static std::string random_hex() {
    unsigned long long bits = 0;
    FILE* random = fopen("/dev/urandom", "rb");
    if (!random || fread(&bits, sizeof bits, 1, random) != 1) fail("/dev/urandom: cannot read");
    fclose(random);
    char text[17];
    snprintf(text, sizeof text, "%016llx", bits);
    return text;
  }

  std::string path_, temp_;
  FILE* f_ = nullptr;
};

// The records of an IAGOGAM1 file (checked only for their framing here).
static std::vector<Record> read_records(const std::string& path) {
  const std::vector<unsigned char> bytes = read_file(path);
  if (bytes.size() < 8 || memcmp(bytes.data(), "IAGOGAM1", 8) != 0)
    fail("%s: not an IAGOGAM1 file", path.c_str());
  std::vector<Record> records;
  size_t at = 8;
  while (at < bytes.size()) {
    if (at + 4 > bytes.size()) fail("%s: record %zu: truncated header", path.c_str(), records.size() + 1);
    Record rec;
    memset(&rec, 0, sizeof rec);
    rec.n = bytes[at];
    rec.result = (int8_t)bytes[at + 1];
    rec.exact_from = bytes[at + 2];
    rec.opening = bytes[at + 3];
    at += 4;
    if (rec.n > 60 || at + rec.n > bytes.size())
      fail("%s: record %zu: %d moves, truncated or too many", path.c_str(), records.size() + 1, rec.n);
    memcpy(rec.moves, &bytes[at], rec.n);
    at += rec.n;
    records.push_back(rec);
  }
  return records;
}

// The rank order of IAGOGAM2 (docs/selfplay.md, iago's corpus::records::ranked_moves):
// fewest replies first, then the square's class, then the square.
static const unsigned char SQUARE_CLASS[64] = {
    0, 6, 2, 3, 3, 2, 6, 0, 6, 7, 5, 5, 5, 5, 7, 6, 2, 5, 1, 4, 4, 1, 5, 2,
    3, 5, 4, 9, 9, 4, 5, 3, 3, 5, 4, 9, 9, 4, 5, 3, 2, 5, 1, 4, 4, 1, 5, 2,
    6, 7, 5, 5, 5, 5, 7, 6, 0, 6, 2, 3, 3, 2, 6, 0};

// The rank of `square` among the legal moves of the side to move, or -1 if not legal.
static int move_rank(const Game& g, int square) {
  const u64 legal = legal_moves(g.player, g.opponent);
  if (square < 0 || square > 63 || !((legal >> square) & 1)) return -1;
  auto key = [&](int sq) {
    const u64 flipped = flips(sq, g.player, g.opponent);
    const u64 mover = g.player | flipped | (1ULL << sq);
    const u64 other = g.opponent & ~flipped;
    return (uint32_t)popcount64(legal_moves(other, mover)) << 16 | (uint32_t)SQUARE_CLASS[sq] << 8 | (uint32_t)sq;
  };
  const uint32_t mine = key(square);
  int rank = 0;
  for (u64 rest = legal; rest; rest &= rest - 1)
    if (key(lowest_bit(rest)) < mine) rank++;
  return rank;
}

// IAGOGAM3 (docs/selfplay.md; iago's corpus::coded and corpus::range_coder): each move's
// rank coded bit by bit with a binary adaptive range coder in contexts of the game's
// phase, the empties, the number of legal moves and the question ("is the rank k?").
// Byte for byte what iago writes for the same games.
struct CoderBit {
  uint16_t fast = 1 << 15, slow = 1 << 15;
  uint32_t zero_probability() const {
    const uint32_t mixed = ((uint32_t)fast + slow) >> 5;
    return mixed < 1 ? 1 : mixed > 4095 ? 4095 : mixed;
  }
  void learn(bool bit) {
    if (bit) {
      fast -= fast >> 4;
      slow -= slow >> 7;
    } else {
      fast += (uint16_t)(65535 - fast) >> 4;
      slow += (uint16_t)(65535 - slow) >> 7;
    }
  }
};

class RangeEncoder {
 public:
  void bit(CoderBit& context, bool bit) {
    const uint32_t bound = (range_ >> 12) * context.zero_probability();
    if (bit) {
      low_ += bound;
      range_ -= bound;
    } else {
      range_ = bound;
    }
    context.learn(bit);
    while (range_ < (1u << 24)) {
      range_ <<= 8;
      shift_low();
    }
  }
  // The low `bits` bits of value, high first, in a binary tree of 2^bits contexts.
  void tree(CoderBit* contexts, int bits, uint32_t value) {
    size_t node = 1;
    for (int shift = bits - 1; shift >= 0; shift--) {
      const bool b = (value >> shift) & 1;
      bit(contexts[node], b);
      node = node << 1 | (b ? 1 : 0);
    }
  }
  std::vector<unsigned char> finish() {
    for (int i = 0; i < 5; i++) shift_low();
    return out_;
  }

 private:
  void shift_low() {
    if (low_ < 0xFF000000ULL || low_ > 0xFFFFFFFFULL) {
      const unsigned char carry = (unsigned char)(low_ >> 32);
      unsigned char byte = cache_;
      while (waiting_ > 0) {
        out_.push_back((unsigned char)(byte + carry));
        byte = 0xFF;
        waiting_--;
      }
      cache_ = (unsigned char)(low_ >> 24);
    }
    waiting_++;
    low_ = (low_ & 0x00FFFFFFULL) << 8;
  }
  uint64_t low_ = 0;
  uint32_t range_ = 0xFFFFFFFFu;
  unsigned char cache_ = 0;
  uint64_t waiting_ = 1;
  std::vector<unsigned char> out_;
};

static uint32_t crc32_of(const std::vector<unsigned char>& bytes) {
  static uint32_t table[256];
  static bool ready = false;
  if (!ready) {
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    ready = true;
  }
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char b : bytes) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

enum class RecordFormat { Squares, Ranks, Coded };

// Writes records as IAGOGAM1 (the squares), IAGOGAM2 (each move's rank among the legal
// moves) or IAGOGAM3 (the ranks range-coded); the last two need legal games, the last
// whole ones.
static void write_records(const std::string& path, const Record* records, size_t count, RecordFormat format) {
  OutFile out(path);
  if (format == RecordFormat::Coded) {
    const int COUNTS = 24, STEPS = 24, GROUPS = 8;
    std::vector<CoderBit> exact_from(256), opening(256), ranks(3 * GROUPS * COUNTS * STEPS);
    RangeEncoder coder;
    for (size_t i = 0; i < count; i++) {
      const Record& r = records[i];
      coder.tree(exact_from.data(), 8, r.exact_from);
      coder.tree(opening.data(), 8, r.opening);
      Game g = {START_PLAYER, START_OPPONENT, true};
      for (int m = 0; m < r.n; m++) {
        if (legal_moves(g.player, g.opponent) == 0) pass_move(g);
        const int rank = move_rank(g, r.moves[m]);
        if (rank < 0) fail("%s: record %zu: move %d is not legal", path.c_str(), i + 1, m + 1);
        const int legal = popcount64(legal_moves(g.player, g.opponent));
        const int empties = 64 - popcount64(g.player | g.opponent);
        const int phase = m < r.opening ? 0 : (r.exact_from != 255 && m >= r.exact_from) ? 2 : 1;
        const int group = std::min(empties / 8, GROUPS - 1);
        for (int step = 0; step < legal - 1; step++) {
          const size_t index = ((size_t)(phase * GROUPS + group) * COUNTS + std::min(legal, COUNTS) - 1) * STEPS +
                               std::min(step, STEPS - 1);
          coder.bit(ranks[index], rank == step);
          if (rank == step) break;
        }
        play_move(g, r.moves[m]);
      }
      const bool over = legal_moves(g.player, g.opponent) == 0 && legal_moves(g.opponent, g.player) == 0;
      const int result = g.black_to_move ? final_disc_difference(g.player, g.opponent)
                                         : -final_disc_difference(g.player, g.opponent);
      if (!over || result != r.result)
        fail("%s: record %zu: not a whole game with its final result", path.c_str(), i + 1);
    }
    const std::vector<unsigned char> coded = coder.finish();
    const uint32_t games = (uint32_t)count, crc = crc32_of(coded);
    out.write("IAGOGAM3", 8);
    out.write(&games, 4);
    out.write(&crc, 4);
    out.write(coded.data(), coded.size());
    out.close();
    return;
  }
  const bool compact = format == RecordFormat::Ranks;
  out.write(compact ? "IAGOGAM2" : "IAGOGAM1", 8);
  for (size_t i = 0; i < count; i++) {
    const Record& r = records[i];
    const unsigned char head[4] = {r.n, (unsigned char)r.result, r.exact_from, r.opening};
    out.write(head, 4);
    if (!compact) {
      out.write(r.moves, r.n);
      continue;
    }
    Game g = {START_PLAYER, START_OPPONENT, true};
    unsigned char ranks[60];
    for (int m = 0; m < r.n; m++) {
      if (legal_moves(g.player, g.opponent) == 0) pass_move(g);
      const int rank = move_rank(g, r.moves[m]);
      if (rank < 0) fail("%s: record %zu: move %d is not legal", path.c_str(), i + 1, m + 1);
      ranks[m] = (unsigned char)rank;
      play_move(g, r.moves[m]);
    }
    out.write(ranks, r.n);
  }
  out.close();
}

// Replays a record, calling visit(position, moves played so far) before each move.
// Returns an empty string, or what is wrong with the record.
template <class Visit>
static std::string replay(const Record& rec, Visit visit) {
  Game g = {START_PLAYER, START_OPPONENT, true};
  for (int i = 0; i < rec.n; i++) {
    if (legal_moves(g.player, g.opponent) == 0) {
      if (legal_moves(g.opponent, g.player) == 0)
        return "the game is over before move " + std::to_string(i + 1);
      pass_move(g);
    }
    const int sq = rec.moves[i];
    if (sq > 63 || !((legal_moves(g.player, g.opponent) >> sq) & 1))
      return "move " + std::to_string(i + 1) + " (" + (sq > 63 ? std::to_string(sq) : square_name(sq)) + ") is illegal";
    visit(Position{g.player, g.opponent, g.black_to_move}, i);
    play_move(g, sq);
  }
  if (legal_moves(g.player, g.opponent) != 0 || legal_moves(g.opponent, g.player) != 0)
    return "the record ends before the game does";
  const int result = g.black_to_move ? final_disc_difference(g.player, g.opponent)
                                     : -final_disc_difference(g.player, g.opponent);
  if (result != rec.result)
    return "result " + std::to_string(rec.result) + " but the final position gives " + std::to_string(result);
  return "";
}

// ---- The GPU side --------------------------------------------------------------------

#ifdef __CUDACC__
#define CUDA_CHECK(call)                                                              \
  do {                                                                                \
    cudaError_t status = (call);                                                      \
    if (status != cudaSuccess) fail("CUDA: %s: %s", #call, cudaGetErrorString(status)); \
  } while (0)

static void launch_check(const char* what) {
  cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess) status = cudaDeviceSynchronize();
  if (status != cudaSuccess) fail("CUDA: %s: %s", what, cudaGetErrorString(status));
}

template <class T>
static T* to_device(const T* data, size_t count) {
  T* device = nullptr;
  CUDA_CHECK(cudaMalloc(&device, std::max<size_t>(1, count) * sizeof(T)));
  if (count) CUDA_CHECK(cudaMemcpy(device, data, count * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

__global__ void clock_kernel(unsigned long long* out) { *out = clock_ns(); }

__global__ void perft_kernel(const Position* nodes, int count, int depth, const uint8_t* passed,
                             unsigned long long* leaves) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) leaves[i] = perft(nodes[i].player, nodes[i].opponent, depth, passed[i] != 0);
}

__global__ void eval_kernel(Weights weights, const Position* positions, int count, int* values) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const u64 p = positions[i].player, o = positions[i].opponent;
  values[i] = (legal_moves(p, o) | legal_moves(o, p)) ? evaluate(weights, p, o, -1)
                                                       : 100 * final_disc_difference(p, o);
}

__global__ void solve_kernel(Weights weights, const Position* positions, int count, int* values,
                             int* moves, unsigned long long* nodes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  Searcher s = {weights, 0, 0, false};
  values[i] = search(s, positions[i].player, positions[i].opponent, 0, true, -INF_SCORE, INF_SCORE, &moves[i]);
  nodes[i] = s.nodes;
}

// Persistent threads: each takes the next game index until `limit` or the deadline (device
// clock, ns), so the games taken are a prefix of the indices; one that is still going at
// `cfg.abort_at` is abandoned (its record marked ABANDONED).
__global__ void play_kernel(PlayConfig cfg, Weights weights, Record* out, unsigned long long* next,
                            unsigned long long limit, unsigned long long deadline,
                            unsigned long long* nodes, unsigned int* mismatches) {
  Searcher s = {weights, 0, 0, false};
  unsigned long long last = 0;
  for (;;) {
    const unsigned long long begin = clock_ns();
    if (begin >= deadline || !worth_starting(cfg, begin, last)) break;
    const unsigned long long g = atomicAdd(next, 1ULL);
    if (g >= limit) break;
    if (!play_game(s, cfg, g, &out[g])) atomicAdd(mismatches, 1u);
    last = clock_ns() - begin;
  }
  atomicAdd(nodes, s.nodes);
}

static void gpu_setup() {
  CUDA_CHECK(cudaMemcpyToSymbol(d_ternary, h_ternary, sizeof h_ternary));
  // The search's frames live on each thread's stack.
  CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  fprintf(stderr, "selfplay: GPU %s, %d multiprocessors, compute %d.%d\n", prop.name,
          prop.multiProcessorCount, prop.major, prop.minor);
}
#endif

// ---- Modes ---------------------------------------------------------------------------

// A weight file in host memory.
struct HostWeights {
  std::vector<int16_t> values;
  int stages = 0;
  Weights view() const { return Weights{values.data(), stages}; }
#ifdef __CUDACC__
  // A copy on the device (kept for the rest of the run).
  Weights on_device() const { return Weights{to_device(values.data(), values.size()), stages}; }
#endif
};

static HostWeights load_weights(const Args& args) {
  const std::string path = args.text("--weights", "crates/core/src/othello/eval/weights/patterns.bin");
  std::string error;
  HostWeights weights;
  weights.values = read_weights(path.c_str(), h_layout, weights.stages, error);
  if (weights.values.empty()) fail("%s", error.c_str());
  return weights;
}

// Nodes `split` plies below the start, with the leaves of games that end sooner counted.
static void perft_frontier(u64 p, u64 o, int depth, int split, bool passed, std::vector<Position>& nodes,
                           std::vector<uint8_t>& passes, unsigned long long& leaves) {
  if (split == 0 || depth == 0) {
    nodes.push_back({p, o, true});
    passes.push_back(passed);
    return;
  }
  u64 moves = legal_moves(p, o);
  if (moves == 0) {
    if (depth == 1 || passed || legal_moves(o, p) == 0) {
      leaves++;
      return;
    }
    perft_frontier(o, p, depth - 1, split - 1, true, nodes, passes, leaves);
    return;
  }
  for (; moves; moves &= moves - 1) {
    const int sq = lowest_bit(moves);
    const u64 f = flips(sq, p, o);
    perft_frontier(o ^ f, p ^ f ^ (1ULL << sq), depth - 1, split - 1, false, nodes, passes, leaves);
  }
}

static int mode_perft(const Args& args) {
  args.only({"--device", "--threads"});
  if (args.positional.size() != 1) fail("perft: give the depth");
  const int depth = atoi(args.positional[0].c_str());
  if (depth < 0 || depth > 20) fail("perft: depth %s is not 0..20", args.positional[0].c_str());
  const bool gpu = use_gpu(args);
  const double start = now_seconds();
  // Split the tree a few plies down: the nodes there are counted in parallel.
  std::vector<Position> nodes;
  std::vector<uint8_t> passes;
  unsigned long long leaves = 0;
  const int split = std::min(depth, gpu ? 7 : 4);
  perft_frontier(START_PLAYER, START_OPPONENT, depth, split, false, nodes, passes, leaves);
  const int rest = depth - split;
  std::vector<unsigned long long> counts(nodes.size());
  if (gpu) {
#ifdef __CUDACC__
    gpu_setup();
    Position* d_nodes = to_device(nodes.data(), nodes.size());
    uint8_t* d_passes = to_device(passes.data(), passes.size());
    unsigned long long* d_counts = nullptr;
    CUDA_CHECK(cudaMalloc(&d_counts, std::max<size_t>(1, nodes.size()) * sizeof(unsigned long long)));
    const int threads = 128, blocks = (int)((nodes.size() + threads - 1) / threads);
    if (blocks) perft_kernel<<<blocks, threads>>>(d_nodes, (int)nodes.size(), rest, d_passes, d_counts);
    launch_check("perft");
    CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, nodes.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    cudaFree(d_nodes);
    cudaFree(d_passes);
    cudaFree(d_counts);
#endif
  } else {
    parallel_for((long long)nodes.size(), thread_count(args), [&](long long i) {
      counts[i] = perft(nodes[i].player, nodes[i].opponent, rest, passes[i] != 0);
    });
  }
  for (auto c : counts) leaves += c;
  printf("perft %d: %llu\n", depth, leaves);
  fprintf(stderr, "time %.3f s (%s)\n", now_seconds() - start, gpu ? "gpu" : "cpu");
  return 0;
}

static std::vector<Position> read_position_lines(FILE* in, const char* name) {
  std::vector<Position> positions;
  char line[4096];
  int number = 0;
  while (fgets(line, sizeof line, in)) {
    number++;
    std::string text = line;
    // An OBF line: the position ends at the first ';'.
    const size_t semicolon = text.find(';');
    if (semicolon != std::string::npos) text = text.substr(0, semicolon);
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || text[first] == '#' || text[first] == '%') continue;
    Position pos;
    if (!parse_position(text.substr(0, text.find_last_not_of(" \t\r\n") + 1), pos))
      fail("%s: line %d: not a position string (64 squares of X, O, -, then the side X or O)", name, number);
    if (pos.player & pos.opponent) fail("%s: line %d: a square holds two discs", name, number);
    positions.push_back(pos);
  }
  return positions;
}

static int mode_eval(const Args& args) {
  args.only({"--device", "--weights", "--threads"});
  const HostWeights weights = load_weights(args);
  const std::vector<Position> positions = read_position_lines(stdin, "stdin");
  const bool gpu = use_gpu(args);
  std::vector<int> values(positions.size());
  if (gpu) {
#ifdef __CUDACC__
    gpu_setup();
    const Weights d_weights = weights.on_device();
    Position* d_positions = to_device(positions.data(), positions.size());
    int* d_values = nullptr;
    CUDA_CHECK(cudaMalloc(&d_values, std::max<size_t>(1, positions.size()) * sizeof(int)));
    const int threads = 128, blocks = (int)((positions.size() + threads - 1) / threads);
    if (blocks) eval_kernel<<<blocks, threads>>>(d_weights, d_positions, (int)positions.size(), d_values);
    launch_check("eval");
    CUDA_CHECK(cudaMemcpy(values.data(), d_values, positions.size() * sizeof(int), cudaMemcpyDeviceToHost));
#endif
  } else {
    for (size_t i = 0; i < positions.size(); i++) {
      const u64 p = positions[i].player, o = positions[i].opponent;
      // A finished game scores its result, as iago's `eval` does.
      values[i] = (legal_moves(p, o) | legal_moves(o, p)) ? evaluate(weights.view(), p, o, -1)
                                                           : 100 * final_disc_difference(p, o);
    }
  }
  for (int v : values) printf("%d\n", v);
  return 0;
}

static int mode_solve(const Args& args) {
  args.only({"--device", "--weights", "--threads"});
  if (args.positional.size() != 1) fail("solve: give an .obf file");
  const std::string path = args.positional[0];
  FILE* in = fopen(path.c_str(), "r");
  if (!in) fail("%s: cannot open", path.c_str());
  const std::vector<Position> positions = read_position_lines(in, path.c_str());
  fclose(in);
  for (size_t i = 0; i < positions.size(); i++) {
    const int empties = 64 - popcount64(positions[i].player | positions[i].opponent);
    if (empties > MAX_DEPTH) fail("%s: position %zu has %d empties, at most %d are solved", path.c_str(), i + 1, empties, MAX_DEPTH);
  }
  const HostWeights weights = load_weights(args);
  const bool gpu = use_gpu(args);
  std::vector<int> values(positions.size()), moves(positions.size());
  std::vector<unsigned long long> nodes(positions.size());
  const double start = now_seconds();
  if (gpu) {
#ifdef __CUDACC__
    gpu_setup();
    const Weights d_weights = weights.on_device();
    Position* d_positions = to_device(positions.data(), positions.size());
    int *d_values = nullptr, *d_moves = nullptr;
    unsigned long long* d_nodes = nullptr;
    const size_t n = std::max<size_t>(1, positions.size());
    CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_moves, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_nodes, n * sizeof(unsigned long long)));
    const int threads = 64, blocks = (int)((positions.size() + threads - 1) / threads);
    if (blocks) solve_kernel<<<blocks, threads>>>(d_weights, d_positions, (int)positions.size(), d_values, d_moves, d_nodes);
    launch_check("solve");
    CUDA_CHECK(cudaMemcpy(values.data(), d_values, positions.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(moves.data(), d_moves, positions.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(nodes.data(), d_nodes, positions.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
#endif
  } else {
    parallel_for((long long)positions.size(), thread_count(args), [&](long long i) {
      Searcher s = {weights.view(), 0, 0, false};
      values[i] = search(s, positions[i].player, positions[i].opponent, 0, true, -INF_SCORE, INF_SCORE, &moves[i]);
      nodes[i] = s.nodes;
    });
  }
  const double seconds = now_seconds() - start;
  unsigned long long total = 0;
  for (size_t i = 0; i < positions.size(); i++) {
    total += nodes[i];
    printf("%zu %d %+d %s %llu\n", i + 1, 64 - popcount64(positions[i].player | positions[i].opponent), values[i],
           moves[i] == NO_MOVE ? "--" : square_name(moves[i]).c_str(), nodes[i]);
  }
  fprintf(stderr, "solved %zu positions, %llu nodes in %.3f s (%s)\n", positions.size(), total, seconds, gpu ? "gpu" : "cpu");
  return 0;
}

// Opening lines from a file as `iago openings` writes them: a move string a line ("f5d6c3",
// spaces allowed; "-" or "start" for none), anything after a tab or '#' ignored, blank
// lines skipped. Each line is checked legal.
static void read_openings(const std::string& path, std::vector<uint8_t>& moves, std::vector<uint8_t>& lengths) {
  FILE* in = fopen(path.c_str(), "r");
  if (!in) fail("%s: cannot open", path.c_str());
  char buffer[4096];
  int number = 0;
  while (fgets(buffer, sizeof buffer, in)) {
    number++;
    std::string line = buffer;
    line = line.substr(0, line.find_first_of("\t#\r\n"));
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    line = line.substr(first, line.find_last_not_of(' ') + 1 - first);
    std::vector<uint8_t> line_moves;
    Game g = {START_PLAYER, START_OPPONENT, true};
    for (size_t c = 0; line != "-" && line != "start" && c < line.size();) {
      if (line[c] == ' ') {
        c++;
        continue;
      }
      const char file = (char)(line[c] | 0x20), rank = c + 1 < line.size() ? line[c + 1] : 0;
      if (file < 'a' || file > 'h' || rank < '1' || rank > '8')
        fail("%s: line %d: %s is not a move list like f5d6c3", path.c_str(), number, line.c_str());
      const int sq = (rank - '1') * 8 + (file - 'a');
      if (legal_moves(g.player, g.opponent) == 0) pass_move(g);
      if (!((legal_moves(g.player, g.opponent) >> sq) & 1) || line_moves.size() >= 59)
        fail("%s: line %d: move %zu (%s) is illegal", path.c_str(), number, line_moves.size() + 1,
             square_name(sq).c_str());
      play_move(g, sq);
      line_moves.push_back((uint8_t)sq);
      c += 2;
    }
    lengths.push_back((uint8_t)line_moves.size());
    line_moves.resize(60, 0);
    moves.insert(moves.end(), line_moves.begin(), line_moves.end());
  }
  fclose(in);
}

static int mode_play(const Args& args) {
  args.only({"--device", "--weights", "--threads", "--games", "--out", "--seed", "--depth", "--exact", "--random",
             "--openings", "--seconds", "--hard-seconds", "--abandoned"});
  const long long games = args.number("--games", -1, 1, 100000000000LL);
  if (games < 0) fail("play: give --games N (the most games; --seconds may stop sooner)");
  const std::string out = args.text("--out", "");
  if (out.empty()) fail("play: give --out FILE");
  PlayConfig cfg;
  cfg.seed = (u64)args.number("--seed", 1, 0, INT64_MAX);
  cfg.depth = (int)args.number("--depth", 4, 1, MAX_DEPTH);
  cfg.exact = (int)args.number("--exact", 14, 0, MAX_DEPTH);
  cfg.random_moves = (int)args.number("--random", 10, 0, 60);
  const double seconds = args.real("--seconds", 0);
  // Past --hard-seconds the games in flight are abandoned and left out of the file.
  const double hard_seconds = args.real("--hard-seconds", 0);
  const std::string abandoned_path = args.text("--abandoned", "");
  std::vector<uint8_t> opening_moves, opening_lengths;
  if (args.named.count("--openings")) read_openings(args.text("--openings", ""), opening_moves, opening_lengths);
  cfg.opening_count = (int)opening_lengths.size();
  cfg.opening_moves = opening_moves.data();
  cfg.opening_lengths = opening_lengths.data();
  cfg.abort_at = 0;
  const HostWeights weights = load_weights(args);
  const bool gpu = use_gpu(args);
  std::vector<Record> records;
  unsigned long long nodes = 0, done = 0;
  unsigned mismatches = 0;
  const double start = now_seconds();
  if (gpu) {
#ifdef __CUDACC__
    gpu_setup();
    PlayConfig dcfg = cfg;
    dcfg.opening_moves = to_device(opening_moves.data(), opening_moves.size());
    dcfg.opening_lengths = to_device(opening_lengths.data(), opening_lengths.size());
    const Weights d_weights = weights.on_device();
    Record* d_records = nullptr;
    CUDA_CHECK(cudaMalloc(&d_records, (size_t)games * sizeof(Record)));
    unsigned long long *d_counters = nullptr, *d_now = nullptr;
    CUDA_CHECK(cudaMalloc(&d_counters, 3 * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_counters, 0, 3 * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_now, sizeof(unsigned long long)));
    int per_sm = 0, sms = 0;
    const int threads = 128;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, play_kernel, threads, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int blocks = std::max(1, per_sm * sms);
    fprintf(stderr, "selfplay: %d blocks of %d threads (%d a multiprocessor)\n", blocks, threads, per_sm);
    // One launch for the whole run: a kernel ends only when its last game does, so every
    // launch boundary would leave the GPU waiting on the slowest games in flight.
    unsigned long long device_now = 0;
    clock_kernel<<<1, 1>>>(d_now);
    launch_check("clock");
    CUDA_CHECK(cudaMemcpy(&device_now, d_now, sizeof device_now, cudaMemcpyDeviceToHost));
    const double since = now_seconds() - start;
    const auto at = [&](double s) { return device_now + (unsigned long long)(std::max(0.0, s - since) * 1e9); };
    if (hard_seconds > 0) dcfg.abort_at = at(hard_seconds);
    const unsigned long long deadline = seconds > 0 ? at(seconds) : ~0ULL;
    play_kernel<<<blocks, threads>>>(dcfg, d_weights, d_records, d_counters, (unsigned long long)games, deadline,
                                     d_counters + 1, (unsigned int*)(d_counters + 2));
    launch_check("play");
    unsigned long long counters[3];
    CUDA_CHECK(cudaMemcpy(counters, d_counters, sizeof counters, cudaMemcpyDeviceToHost));
    done = std::min(counters[0], (unsigned long long)games);
    nodes = counters[1];
    mismatches = (unsigned)counters[2];
    records.resize(done);
    if (done) CUDA_CHECK(cudaMemcpy(records.data(), d_records, done * sizeof(Record), cudaMemcpyDeviceToHost));
#endif
  } else {
    records.resize((size_t)games);
    if (hard_seconds > 0) cfg.abort_at = clock_ns() + (unsigned long long)(hard_seconds * 1e9);
    const int threads = thread_count(args);
    std::atomic<long long> next(0);
    std::atomic<unsigned long long> total_nodes(0);
    std::atomic<unsigned> bad(0);
    const double end = seconds > 0 ? start + seconds : 1e300;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
      pool.emplace_back([&]() {
        Searcher s = {weights.view(), 0, 0, false};
        unsigned long long last = 0;
        for (;;) {
          const unsigned long long begin = clock_ns();
          if (now_seconds() >= end || !worth_starting(cfg, begin, last)) break;
          const long long g = next.fetch_add(1);
          if (g >= games) break;
          if (!play_game(s, cfg, (u64)g, &records[(size_t)g])) bad++;
          last = clock_ns() - begin;
        }
        total_nodes += s.nodes;
      });
    for (auto& thread : pool) thread.join();
    done = (unsigned long long)std::min<long long>(next.load(), games);
    records.resize(done);
    nodes = total_nodes;
    mismatches = bad;
  }
  // The games taken are indices 0..done-1; the abandoned ones among them are left out and
  // named (with --abandoned FILE, every one), so that the file's games are known by number.
  std::vector<unsigned long long> abandoned;
  size_t kept = 0;
  for (size_t i = 0; i < records.size(); i++) {
    if (records[i].n == ABANDONED)
      abandoned.push_back(i);
    else
      records[kept++] = records[i];
  }
  records.resize(kept);
  if (!abandoned.empty()) {
    fprintf(stderr, "selfplay: the hard deadline abandoned %zu of games 0-%llu (the first: %llu), kept %zu\n",
            abandoned.size(), done - 1, abandoned[0], kept);
  }
  if (!abandoned_path.empty()) {
    std::string list;
    for (unsigned long long g : abandoned) list += std::to_string(g) + "\n";
    OutFile file(abandoned_path);
    file.write(list.data(), list.size());
    file.close();
  }
  const unsigned long long taken = done;
  done = kept;
  const double elapsed = now_seconds() - start;
  write_records(out, records.data(), records.size(), RecordFormat::Squares);
  unsigned long long moves = 0, searched = 0;
  for (const Record& r : records) {
    moves += r.n;
    searched += r.n - r.opening;
  }
  printf("played %llu games (seed %llu, depth %d, exact %d, random %d%s) on the %s: %llu moves, %llu searched, "
         "%.2f s, %.1f games/s, %.0f positions/s, %.3g nodes/s, %u solve mismatches, %zu of %llu abandoned\n",
         done, (unsigned long long)cfg.seed, cfg.depth, cfg.exact, cfg.random_moves,
         cfg.opening_count ? ", openings from a file" : "", gpu ? "gpu" : "cpu", moves, searched, elapsed,
         done / elapsed, searched / elapsed, nodes / elapsed, mismatches, abandoned.size(), taken);
  return mismatches ? 1 : 0;
}

static int mode_check(const Args& args) {
  args.only({"--solve", "--weights", "--threads"});
  if (args.positional.size() != 1) fail("check: give a game file");
  const std::vector<Record> records = read_records(args.positional[0]);
  const long long solve = args.number("--solve", 0, 0, 1LL << 40);
  HostWeights weights;
  if (solve) weights = load_weights(args);
  long long solved = 0, wrong = 0;
  for (size_t i = 0; i < records.size(); i++) {
    const Record& rec = records[i];
    Position at_solve = {0, 0, true};
    const std::string error = replay(rec, [&](const Position& pos, int ply) {
      if (ply == rec.exact_from) at_solve = pos;
    });
    if (!error.empty()) fail("%s: record %zu: %s", args.positional[0].c_str(), i + 1, error.c_str());
    if (rec.opening > rec.n || (rec.exact_from != NOT_SOLVED && rec.exact_from > rec.n))
      fail("%s: record %zu: opening %d or exact_from %d beyond its %d moves", args.positional[0].c_str(), i + 1,
           rec.opening, rec.exact_from, rec.n);
    if (solved < solve && rec.exact_from != NOT_SOLVED && rec.exact_from < rec.n) {
      Searcher s = {weights.view(), 0, 0, false};
      int move;
      const int v = search(s, at_solve.player, at_solve.opponent, 0, true, -INF_SCORE, INF_SCORE, &move);
      const int black = at_solve.black_to_move ? v : -v;
      solved++;
      if (black != rec.result) {
        wrong++;
        fprintf(stderr, "record %zu: the position after %d moves is worth %+d to Black, the result is %+d\n", i + 1,
                rec.exact_from, black, rec.result);
      }
    }
  }
  printf("%zu records, all legal and their results right; %lld solve points re-solved, %lld wrong\n", records.size(),
         solved, wrong);
  return wrong ? 1 : 0;
}

static int mode_positions(const Args& args) {
  args.only({"--every", "--min-empties", "--max-empties"});
  if (args.positional.size() != 1) fail("positions: give a game file");
  const std::vector<Record> records = read_records(args.positional[0]);
  const long long every = args.number("--every", 1, 1, 1LL << 40);
  const int low = (int)args.number("--min-empties", 0, 0, 60), high = (int)args.number("--max-empties", 60, 0, 60);
  long long seen = 0;
  for (size_t i = 0; i < records.size(); i++) {
    const std::string error = replay(records[i], [&](const Position& pos, int) {
      const int empties = 64 - popcount64(pos.player | pos.opponent);
      if (empties < low || empties > high) return;
      if (seen++ % every == 0) printf("%s\n", format_position(pos).c_str());
    });
    if (!error.empty()) fail("%s: record %zu: %s", args.positional[0].c_str(), i + 1, error.c_str());
  }
  return 0;
}

// IAGOFEA1: magic, u64 N, u32 F (51), u32 stage_len, then N x F u32 tied feature indices,
// N x u8 discs, N x i8 label (the result for the side to move), N x u8 flags (bit 0: exact).
static int mode_expand(const Args& args) {
  args.only({"--in", "--out", "--labels"});
  const std::string in = args.text("--in", ""), out_path = args.text("--out", "");
  if (in.empty() || out_path.empty()) fail("expand: give --in GAMES and --out FEATURES");
  const bool all = args.flag("--all");
  const std::string labels_path = args.text("--labels", "");
  const bool with_labels = !labels_path.empty();
  const std::vector<Record> records = read_records(in);
  const std::vector<uint32_t> canonical = make_canonical(h_layout);
  OutFile out(out_path);
  out.write("IAGOFEA1", 8);
  unsigned long long count = 0;
  const uint32_t header[2] = {ACTIVE_FEATURES, h_layout.stage_len};
  out.write(&count, 8);
  out.write(header, 8);
  std::vector<uint8_t> discs, flags;
  std::vector<int8_t> labels;
  std::vector<unsigned char> lbl;
  for (size_t i = 0; i < records.size(); i++) {
    const Record& rec = records[i];
    const std::string error = replay(rec, [&](const Position& pos, int ply) {
      // The opening's positions get a result that later random moves decided: left out
      // unless --all.
      if (!all && ply < rec.opening) return;
      uint32_t features[ACTIVE_FEATURES];
      feature_indices(pos.player, pos.opponent, features);
      for (auto& f : features) f = canonical[f];
      out.write(features, sizeof features);
      const int label = pos.black_to_move ? rec.result : -rec.result;
      const bool exact = rec.exact_from != NOT_SOLVED && ply >= rec.exact_from;
      discs.push_back((uint8_t)popcount64(pos.player | pos.opponent));
      labels.push_back((int8_t)label);
      flags.push_back(exact ? 1 : 0);
      count++;
      if (!with_labels) return;
      // An `iago label` record: the result as an exact score (no blending), no game label.
      unsigned char r[20];
      memcpy(r, &pos.player, 8);
      memcpy(r + 8, &pos.opponent, 8);
      const int16_t score = (int16_t)(label * 100);
      memcpy(r + 16, &score, 2);
      r[18] = 255;
      r[19] = 0x80;
      lbl.insert(lbl.end(), r, r + 20);
    });
    if (!error.empty()) fail("%s: record %zu: %s", in.c_str(), i + 1, error.c_str());
  }
  out.write(discs.data(), discs.size());
  out.write(labels.data(), labels.size());
  out.write(flags.data(), flags.size());
  out.write_at(8, &count, 8);
  out.close();
  if (with_labels) {
    OutFile lf(labels_path);
    lf.write("IAGOLBL1", 8);
    lf.write(&count, 8);
    lf.write(lbl.data(), lbl.size());
    lf.close();
  }
  printf("expanded %zu records into %llu positions\n", records.size(), count);
  return 0;
}

static int mode_head(const Args& args) {
  args.only({"--games", "--skip", "--out", "--compact", "--coded"});
  if (args.positional.size() != 1) fail("head: give a game file");
  const std::vector<Record> records = read_records(args.positional[0]);
  const size_t games = (size_t)args.number("--games", 1000, 0, 1LL << 40);
  const size_t skip = std::min((size_t)args.number("--skip", 0, 0, 1LL << 40), records.size());
  const std::string out = args.text("--out", "");
  if (out.empty()) fail("head: give --out FILE");
  // Parts of a file, as a run packs its records into files of limited size.
  const size_t count = std::min(games, records.size() - skip);
  const RecordFormat format = args.flag("--coded")     ? RecordFormat::Coded
                              : args.flag("--compact") ? RecordFormat::Ranks
                                                       : RecordFormat::Squares;
  write_records(out, records.data() + skip, count, format);
  return 0;
}

static int mode_canonical(const Args& args) {
  args.only({"--out"});
  const std::string path = args.text("--out", "");
  if (path.empty()) fail("canonical: give --out FILE");
  const std::vector<uint32_t> canonical = make_canonical(h_layout);
  OutFile out(path);
  out.write("IAGOCAN1", 8);
  out.write(&h_layout.stage_len, 4);
  out.write(canonical.data(), canonical.size() * 4);
  out.close();
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(USAGE, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  h_layout = make_layout();
  std::string layout_error;
  if (!check_fast_layout(h_layout, layout_error)) fail("the compiled evaluation does not match the layout: %s", layout_error.c_str());
  const std::string mode = argv[1];
  const Args args(argc, argv, {"--all", "--compact", "--coded"});
  if (mode == "perft") return mode_perft(args);
  if (mode == "eval") return mode_eval(args);
  if (mode == "solve") return mode_solve(args);
  if (mode == "play") return mode_play(args);
  if (mode == "check") return mode_check(args);
  if (mode == "positions") return mode_positions(args);
  if (mode == "expand") return mode_expand(args);
  if (mode == "canonical") return mode_canonical(args);
  if (mode == "head") return mode_head(args);
  fail("unknown mode %s (try `selfplay help`)", mode.c_str());
}
