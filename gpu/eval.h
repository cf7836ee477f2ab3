// iago's pattern evaluation, bit for bit (crates/core/src/othello/eval/features.rs and pattern.rs).
//
// The same 11 patterns and their 46 distinct symmetric placements in the same order, the
// same ternary index of each placement (the squares of the pattern in increasing bit order
// are the digits, 1 for the side to move's disc, 2 for the opponent's), then the two
// mobility features, the parity of the empties and the two potential mobilities: 51
// weights a position, from the weight
// set of the position's stage (by discs on the board, as many stages as the weight file
// has: 15 are 4 disc counts each), summed in
// hundredths of a disc and clamped to +-6399.
//
// A placement reads its pattern on the board seen through a symmetry.
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include "othello.h"

#define PATTERN_COUNT 11
#define PLACEMENT_COUNT 46
#define MAX_PATTERN_SQUARES 10
#define MAX_MOBILITY 39
#define MAX_STAGES 60
#define ACTIVE_FEATURES (PLACEMENT_COUNT + 5)
// Largest evaluation: less than any won game's score.
#define EVAL_LIMIT (64 * 100 - 1)

// The layout computed from the patterns, the slow way (features.rs): what the tied
// indices come from, and what the compiled reading below is checked against.
struct EvalLayout {
  // Digit d of placement k reads square squares[k][d] (0xFF past the last digit).
  uint8_t squares[PLACEMENT_COUNT][MAX_PATTERN_SQUARES];
  uint8_t digits[PLACEMENT_COUNT];
  uint8_t symmetry[PLACEMENT_COUNT];
  uint32_t offset[PLACEMENT_COUNT];
  uint32_t mobility_offset, opponent_mobility_offset, parity_offset, potential_offset,
      opponent_potential_offset, stage_len;
};

// The patterns' squares in their canonical orientation (features.rs PATTERNS).
static const uint64_t PATTERN_MASKS[PATTERN_COUNT] = {
    0xFFULL | (1ULL << 9) | (1ULL << 14),                              // edge+2x
    (1ULL << 0) | (1ULL << 1) | (1ULL << 2) | (1ULL << 8) | (1ULL << 9) | (1ULL << 10) |
        (1ULL << 16) | (1ULL << 17) | (1ULL << 18),                    // corner-3x3
    (1ULL << 0) | (1ULL << 1) | (1ULL << 2) | (1ULL << 3) | (1ULL << 4) | (1ULL << 8) |
        (1ULL << 9) | (1ULL << 10) | (1ULL << 11) | (1ULL << 12),      // corner-2x5
    (1ULL << 0) | (1ULL << 9) | (1ULL << 18) | (1ULL << 27) | (1ULL << 36) | (1ULL << 45) |
        (1ULL << 54) | (1ULL << 63),                                   // diagonal-8
    (1ULL << 1) | (1ULL << 10) | (1ULL << 19) | (1ULL << 28) | (1ULL << 37) | (1ULL << 46) |
        (1ULL << 55),                                                  // diagonal-7
    (1ULL << 2) | (1ULL << 11) | (1ULL << 20) | (1ULL << 29) | (1ULL << 38) | (1ULL << 47),
    0xFFULL << 8,                                                      // line-2
    0xFFULL << 16,                                                     // line-3
    0xFFULL << 24,                                                     // line-4
    (1ULL << 0) | (1ULL << 2) | (1ULL << 3) | (1ULL << 4) | (1ULL << 5) | (1ULL << 7) |
        (1ULL << 10) | (1ULL << 11) | (1ULL << 12) | (1ULL << 13),     // corner+block
    (1ULL << 0) | (1ULL << 1) | (1ULL << 2) | (1ULL << 3) | (1ULL << 8) | (1ULL << 9) |
        (1ULL << 10) | (1ULL << 16) | (1ULL << 17) | (1ULL << 24),     // corner-triangle
};

// The 8 symmetries in iago's order (symmetry.rs Symmetry::ALL): (transpose, flip rows,
// flip columns), applied in that order.
static const bool SYMMETRY_PARTS[8][3] = {
    {false, false, false}, {false, false, true}, {false, true, false}, {false, true, true},
    {true, false, false},  {true, false, true},  {true, true, false},  {true, true, true},
};

// The inverse of each symmetry: the quarter turns (5 and 6) undo each other.
static const int SYMMETRY_INVERSE[8] = {0, 1, 2, 3, 4, 6, 5, 7};

inline int transform_square(int symmetry, int square) {
  int row = square / 8, column = square % 8;
  if (SYMMETRY_PARTS[symmetry][0]) {
    int t = row;
    row = column;
    column = t;
  }
  if (SYMMETRY_PARTS[symmetry][1]) row = 7 - row;
  if (SYMMETRY_PARTS[symmetry][2]) column = 7 - column;
  return row * 8 + column;
}

inline uint64_t transform_board(uint64_t board, int symmetry) {
  uint64_t out = 0;
  for (int sq = 0; sq < 64; sq++)
    if (board >> sq & 1) out |= 1ULL << transform_square(symmetry, sq);
  return out;
}

inline uint32_t power_of_3(int n) {
  uint32_t p = 1;
  while (n-- > 0) p *= 3;
  return p;
}

static EvalLayout h_layout;

// The layout as features.rs computes it: for each pattern, each symmetry that places it
// on squares no earlier symmetry did.
inline EvalLayout make_layout() {
  EvalLayout layout;
  memset(&layout, 0xFF, sizeof layout.squares);
  int n = 0;
  uint32_t offset = 0;
  for (int k = 0; k < PATTERN_COUNT; k++) {
    const uint64_t mask = PATTERN_MASKS[k];
    for (int s = 0; s < 8; s++) {
      const uint64_t original = transform_board(mask, SYMMETRY_INVERSE[s]);
      bool fresh = true;
      for (int e = 0; e < s; e++)
        if (transform_board(mask, SYMMETRY_INVERSE[e]) == original) fresh = false;
      if (!fresh) continue;
      // Digit d is the d-th lowest square t of the mask on the transformed board, which
      // holds what the original board has on the inverse image of t.
      int d = 0;
      for (int t = 0; t < 64; t++)
        if (mask >> t & 1) layout.squares[n][d++] = (uint8_t)transform_square(SYMMETRY_INVERSE[s], t);
      layout.digits[n] = (uint8_t)d;
      layout.symmetry[n] = (uint8_t)s;
      layout.offset[n] = offset;
      n++;
    }
    offset += power_of_3(popcount64(mask));
  }
  layout.mobility_offset = offset;
  layout.opponent_mobility_offset = offset + MAX_MOBILITY + 1;
  layout.parity_offset = layout.opponent_mobility_offset + MAX_MOBILITY + 1;
  layout.potential_offset = layout.parity_offset + 2;
  layout.opponent_potential_offset = layout.potential_offset + MAX_MOBILITY + 1;
  layout.stage_len = layout.opponent_potential_offset + MAX_MOBILITY + 1;
  return layout;
}

// For each weight index, the smallest index of the configurations that a symmetry of its
// pattern onto itself maps it to (features.rs Layout::canonical): the tied weight.
inline std::vector<uint32_t> make_canonical(const EvalLayout& layout) {
  std::vector<uint32_t> canonical(layout.stage_len);
  for (uint32_t i = 0; i < layout.stage_len; i++) canonical[i] = i;
  uint32_t start = 0;
  for (int k = 0; k < PATTERN_COUNT; k++) {
    const uint64_t mask = PATTERN_MASKS[k];
    int squares[16], digits = 0;
    for (int sq = 0; sq < 64; sq++)
      if (mask >> sq & 1) squares[digits++] = sq;
    std::vector<std::vector<int>> perms;
    for (int s = 0; s < 8; s++) {
      if (transform_board(mask, s) != mask) continue;
      std::vector<int> perm(digits);
      for (int i = 0; i < digits; i++) {
        const int source = transform_square(SYMMETRY_INVERSE[s], squares[i]);
        int j = 0;
        while (j < digits && squares[j] != source) j++;
        perm[i] = j < digits ? j : 0;
      }
      perms.push_back(perm);
    }
    const uint32_t size = power_of_3(digits);
    for (uint32_t config = 0; config < size; config++) {
      uint32_t values[16], rest = config;
      for (int i = 0; i < digits; i++) {
        values[i] = rest % 3;
        rest /= 3;
      }
      uint32_t smallest = config;
      for (const auto& perm : perms) {
        uint32_t acc = 0;
        for (int i = digits - 1; i >= 0; i--) acc = acc * 3 + values[perm[i]];
        if (acc < smallest) smallest = acc;
      }
      canonical[start + config] = start + smallest;
    }
    start += size;
  }
  return canonical;
}

// The stage of a position with `discs` discs on the board among `stages` (1 to 60): the
// 60 moves spread evenly, the full board in the last stage (features.rs stage_of_discs;
// 15 stages are 4 disc counts each).
HD int stage_of(int discs, int stages) {
  const int stage = (discs < 4 ? 0 : discs - 4) * stages / 60;
  return stage < stages - 1 ? stage : stages - 1;
}

// A weight file's weights (on the device or the host): all stages, stage after stage.
struct Weights {
  const int16_t* values;
  int stages;
};

HD int16_t load_weight(const int16_t* w) {
#ifdef __CUDA_ARCH__
  return __ldg(w);
#else
  return *w;
#endif
}

// ---- The fast reading of the placements ---------------------------------------------
//
// As iago does it: the board seen through each of the 8 symmetries, then each placement
// reads its pattern's canonical squares on one of them. With the squares known at compile
// time, a pattern's digits come from a few shifts and masks and the base-3 value of each
// group of bits from a 256-entry table. make_layout checks this list against the layout
// it computes the slow way.

// The placements in iago's order: (pattern, symmetry).
#define FOR_EACH_PLACEMENT(X)                                                              \
  X(0, 0) X(0, 2) X(0, 4) X(0, 6) X(1, 0) X(1, 1) X(1, 2) X(1, 3) X(2, 0) X(2, 1) X(2, 2)  \
  X(2, 3) X(2, 4) X(2, 5) X(2, 6) X(2, 7) X(3, 0) X(3, 1) X(4, 0) X(4, 1) X(4, 2) X(4, 3)  \
  X(5, 0) X(5, 1) X(5, 2) X(5, 3) X(6, 0) X(6, 2) X(6, 4) X(6, 6) X(7, 0) X(7, 2) X(7, 4)  \
  X(7, 6) X(8, 0) X(8, 2) X(8, 4) X(8, 6) X(9, 0) X(9, 2) X(9, 4) X(9, 6) X(10, 0)        \
  X(10, 1) X(10, 2) X(10, 3)

// Where each pattern's weights start within a stage (3^squares each), and the rest.
#define PATTERN_OFFSET_0 0u
#define PATTERN_OFFSET_1 59049u
#define PATTERN_OFFSET_2 78732u
#define PATTERN_OFFSET_3 137781u
#define PATTERN_OFFSET_4 144342u
#define PATTERN_OFFSET_5 146529u
#define PATTERN_OFFSET_6 147258u
#define PATTERN_OFFSET_7 153819u
#define PATTERN_OFFSET_8 160380u
#define PATTERN_OFFSET_9 166941u
#define PATTERN_OFFSET_10 225990u
#define MOBILITY_OFFSET 285039u
#define OPPONENT_MOBILITY_OFFSET (MOBILITY_OFFSET + MAX_MOBILITY + 1)
#define PARITY_OFFSET (OPPONENT_MOBILITY_OFFSET + MAX_MOBILITY + 1)
#define POTENTIAL_OFFSET (PARITY_OFFSET + 2)
#define OPPONENT_POTENTIAL_OFFSET (POTENTIAL_OFFSET + MAX_MOBILITY + 1)
#define STAGE_LEN (OPPONENT_POTENTIAL_OFFSET + MAX_MOBILITY + 1)

// The base-3 value of each 8-bit number's digits: the table the GPU reads from global
// memory (threads read different entries), filled by the host.
#ifdef __CUDACC__
__device__ uint16_t d_ternary[256];
#endif
static uint16_t h_ternary[256];

HD uint32_t ternary(uint32_t bits) {
#ifdef __CUDA_ARCH__
  return __ldg(&d_ternary[bits]);
#else
  return h_ternary[bits];
#endif
}

// Diagonal squares (row i, column i + c) gathered into bits c.. of one byte: each row's
// square lands on its own column, so the multiplication has no carries.
HD uint32_t diagonal_bits(u64 board, u64 mask) {
  return (uint32_t)(((board & mask) * 0x0101010101010101ULL) >> 56);
}

// The index (mine or theirs, digits 0/1) of each pattern on a board, the squares of the
// pattern's canonical mask in increasing order being the digits.
HD uint32_t pattern_0(u64 b) {  // a1..h1, b2, g2
  return ternary((uint32_t)(b & 0xFF)) + 6561u * (uint32_t)(b >> 9 & 1) + 19683u * (uint32_t)(b >> 14 & 1);
}
HD uint32_t pattern_1(u64 b) {  // a1-c3
  return ternary((uint32_t)(b & 7)) + 27u * ternary((uint32_t)(b >> 8 & 7)) + 729u * ternary((uint32_t)(b >> 16 & 7));
}
HD uint32_t pattern_2(u64 b) {  // a1-e2
  return ternary((uint32_t)(b & 31)) + 243u * ternary((uint32_t)(b >> 8 & 31));
}
HD uint32_t pattern_3(u64 b) { return ternary(diagonal_bits(b, 0x8040201008040201ULL)); }
HD uint32_t pattern_4(u64 b) { return ternary(diagonal_bits(b, 0x0080402010080402ULL) >> 1); }
HD uint32_t pattern_5(u64 b) { return ternary(diagonal_bits(b, 0x0000804020100804ULL) >> 2); }
HD uint32_t pattern_6(u64 b) { return ternary((uint32_t)(b >> 8 & 0xFF)); }
HD uint32_t pattern_7(u64 b) { return ternary((uint32_t)(b >> 16 & 0xFF)); }
HD uint32_t pattern_8(u64 b) { return ternary((uint32_t)(b >> 24 & 0xFF)); }
HD uint32_t pattern_9(u64 b) {  // a1, c1-f1, h1, c2-f2
  const uint32_t edge = (uint32_t)((b & 1) | (b >> 1 & 0x1E) | (b >> 2 & 0x20));
  return ternary(edge) + 729u * ternary((uint32_t)(b >> 10 & 0xF));
}
HD uint32_t pattern_10(u64 b) {  // a1-d1, a2-c2, a3-b3, a4
  return ternary((uint32_t)(b & 0xF)) + 81u * ternary((uint32_t)(b >> 8 & 7)) +
         2187u * ternary((uint32_t)(b >> 16 & 3)) + 19683u * (uint32_t)(b >> 24 & 1);
}

// The squares next to any of `discs` (in the 8 directions), not among them.
HD u64 neighbours(u64 discs) {
  const u64 sideways = (discs << 1 & 0xFEFEFEFEFEFEFEFEULL) | (discs >> 1 & 0x7F7F7F7F7F7F7F7FULL) | discs;
  return (sideways | sideways << 8 | sideways >> 8) & ~discs;
}

// Rows mirrored (a1 <-> a8): a row is a byte.
HD u64 flip_rows(u64 b) {
#ifdef __CUDA_ARCH__
  const uint32_t lo = (uint32_t)b, hi = (uint32_t)(b >> 32);
  return (u64)__byte_perm(lo, 0, 0x0123) << 32 | __byte_perm(hi, 0, 0x0123);
#else
  return __builtin_bswap64(b);
#endif
}

// Columns mirrored (a1 <-> h1): each byte's bits reversed.
HD u64 flip_columns(u64 b) {
#ifdef __CUDA_ARCH__
  return flip_rows(__brevll(b));
#else
  b = (b >> 1 & 0x5555555555555555ULL) | (b & 0x5555555555555555ULL) << 1;
  b = (b >> 2 & 0x3333333333333333ULL) | (b & 0x3333333333333333ULL) << 2;
  return (b >> 4 & 0x0F0F0F0F0F0F0F0FULL) | (b & 0x0F0F0F0F0F0F0F0FULL) << 4;
#endif
}

// Reflection about the a1-h8 diagonal: three rounds of swapping bit blocks.
HD u64 transpose(u64 b) {
  u64 t = 0x0F0F0F0F00000000ULL & (b ^ (b << 28));
  b ^= t ^ (t >> 28);
  t = 0x3333000033330000ULL & (b ^ (b << 14));
  b ^= t ^ (t >> 14);
  t = 0x5500550055005500ULL & (b ^ (b << 7));
  return b ^ t ^ (t >> 7);
}

// `board` through symmetry 0..7 (iago's Symmetry::ALL order) into b0..b7.
#define ALL_SYMMETRIES(board, b)                                   \
  const u64 b##0 = (board), b##1 = flip_columns(b##0), b##2 = flip_rows(b##0), \
            b##3 = flip_columns(b##2), b##4 = transpose(b##0), b##5 = flip_columns(b##4), \
            b##6 = flip_rows(b##4), b##7 = flip_columns(b##6)

// Calls visit(index) for each of the 51 active features' weight index (within the
// stage), in iago's order: the placements, the two mobilities, the parity. `mobility`
// is the side to move's move count if known (else negative).
template <class Visit>
HD void for_each_feature(u64 player, u64 opponent, int mobility, Visit visit) {
  ALL_SYMMETRIES(player, p);
  ALL_SYMMETRIES(opponent, o);
#define VISIT_PLACEMENT(pattern, symmetry) \
  visit(PATTERN_OFFSET_##pattern + pattern_##pattern(p##symmetry) + 2 * pattern_##pattern(o##symmetry));
  FOR_EACH_PLACEMENT(VISIT_PLACEMENT)
#undef VISIT_PLACEMENT
  if (mobility < 0) mobility = popcount64(legal_moves(player, opponent));
  const int opponent_mobility = popcount64(legal_moves(opponent, player));
  visit(MOBILITY_OFFSET + (mobility < MAX_MOBILITY ? mobility : MAX_MOBILITY));
  visit(OPPONENT_MOBILITY_OFFSET + (opponent_mobility < MAX_MOBILITY ? opponent_mobility : MAX_MOBILITY));
  visit(PARITY_OFFSET + (popcount64(~(player | opponent)) & 1));
  // Potential mobility: the empty squares next to the other side's discs.
  const u64 empty = ~(player | opponent);
  const int potential = popcount64(neighbours(opponent) & empty);
  const int opponent_potential = popcount64(neighbours(player) & empty);
  visit(POTENTIAL_OFFSET + (potential < MAX_MOBILITY ? potential : MAX_MOBILITY));
  visit(OPPONENT_POTENTIAL_OFFSET + (opponent_potential < MAX_MOBILITY ? opponent_potential : MAX_MOBILITY));
}

// Writes the weight index (within the stage) of each of the 51 active features.
HD void feature_indices(u64 player, u64 opponent, uint32_t* out) {
  int n = 0;
  for_each_feature(player, opponent, -1, [&](uint32_t index) { out[n++] = index; });
}

// The pattern evaluation for the side to move, in hundredths of a disc. `mobility` is the
// side to move's move count if known.
HD int evaluate(const Weights& weights, u64 player, u64 opponent, int mobility) {
  const int discs = popcount64(player | opponent);
  const int16_t* w = weights.values + (size_t)stage_of(discs, weights.stages) * STAGE_LEN;
  int sum = 0;
  for_each_feature(player, opponent, mobility, [&](uint32_t index) { sum += load_weight(w + index); });
  return sum < -EVAL_LIMIT ? -EVAL_LIMIT : sum > EVAL_LIMIT ? EVAL_LIMIT : sum;
}

// Fills the ternary table and checks the compiled placement list and offsets against the
// layout computed from the patterns: false (and a reason) if they differ.
inline bool check_fast_layout(const EvalLayout& layout, std::string& error) {
  for (int bits = 0; bits < 256; bits++) {
    uint32_t value = 0, power = 1;
    for (int i = 0; i < 8; i++, power *= 3)
      if (bits >> i & 1) value += power;
    h_ternary[bits] = (uint16_t)value;
  }
  const uint32_t offsets[PATTERN_COUNT] = {PATTERN_OFFSET_0, PATTERN_OFFSET_1, PATTERN_OFFSET_2, PATTERN_OFFSET_3,
                                           PATTERN_OFFSET_4, PATTERN_OFFSET_5, PATTERN_OFFSET_6, PATTERN_OFFSET_7,
                                           PATTERN_OFFSET_8, PATTERN_OFFSET_9, PATTERN_OFFSET_10};
  const int list[][2] = {
#define LIST_ENTRY(pattern, symmetry) {pattern, symmetry},
      FOR_EACH_PLACEMENT(LIST_ENTRY)
#undef LIST_ENTRY
  };
  if (sizeof list / sizeof list[0] != PLACEMENT_COUNT) error = "the placement list is not 46 long";
  for (int k = 0; k < PLACEMENT_COUNT && error.empty(); k++) {
    if (offsets[list[k][0]] != layout.offset[k] || list[k][1] != layout.symmetry[k])
      error = "placement " + std::to_string(k) + " differs from the layout";
  }
  if (layout.mobility_offset != MOBILITY_OFFSET || layout.stage_len != STAGE_LEN)
    error = "the mobility offset or stage length differs from the layout";
  // Each placement reads its squares in the layout's order: one disc at a time.
  for (int k = 0; k < PLACEMENT_COUNT && error.empty(); k++) {
    for (int d = 0; d < layout.digits[k]; d++) {
      uint32_t got[ACTIVE_FEATURES];
      feature_indices(1ULL << layout.squares[k][d], 0, got);
      uint32_t power = 1;
      for (int i = 0; i < d; i++) power *= 3;
      if (got[k] != layout.offset[k] + power) error = "placement " + std::to_string(k) + " reads its squares out of order";
    }
  }
  return error.empty();
}

// Reads an IAGOPAT2 or IAGOPAT1 weight file (pattern.rs): the magic, the stage count (1 to
// 60) and the weights a stage (u32 each), then the weights. IAGOPAT2: each weight's
// difference from the same weight a stage before (stage 0: from zero) as an unsigned
// LEB128 varint, 0 followed by a varint count for a run of zero differences, an even v
// for +v/2, an odd v for -(v+1)/2. IAGOPAT1: the weights as i16, where -32768 is followed
// by a u16 count of zeros. Returns an empty vector and sets `error` when the file does not
// fit the layout; `stages` gets the file's stage count.
inline std::vector<int16_t> read_weights(const char* path, const EvalLayout& layout, int& stages_out,
                                         std::string& error) {
  std::vector<int16_t> weights;
  FILE* f = fopen(path, "rb");
  if (!f) {
    error = std::string(path) + ": cannot open";
    return weights;
  }
  std::vector<unsigned char> bytes;
  unsigned char buffer[65536];
  size_t got;
  while ((got = fread(buffer, 1, sizeof buffer, f)) > 0) bytes.insert(bytes.end(), buffer, buffer + got);
  fclose(f);
  const bool version_2 = bytes.size() >= 16 && memcmp(bytes.data(), "IAGOPAT2", 8) == 0;
  if (bytes.size() < 16 || (!version_2 && memcmp(bytes.data(), "IAGOPAT1", 8) != 0)) {
    error = std::string(path) + ": not an IAGOPAT2 or IAGOPAT1 file";
    return weights;
  }
  auto word = [&](size_t at) {
    return (uint32_t)bytes[at] | (uint32_t)bytes[at + 1] << 8 | (uint32_t)bytes[at + 2] << 16 |
           (uint32_t)bytes[at + 3] << 24;
  };
  const uint32_t stages = word(8), stage_len = word(12);
  if (stages < 1 || stages > MAX_STAGES || stage_len != layout.stage_len) {
    error = std::string(path) + ": " + std::to_string(stages) + " stages of " + std::to_string(stage_len) +
            " weights, the evaluation needs 1 to " + std::to_string(MAX_STAGES) + " stages of " +
            std::to_string(layout.stage_len);
    return weights;
  }
  stages_out = (int)stages;
  const size_t total = (size_t)stages * stage_len;
  weights.reserve(total);
  size_t at = 16;
  if (version_2) {
    bool bad = false;
    auto varint = [&]() -> uint64_t {
      uint64_t value = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        if (at >= bytes.size()) break;
        const unsigned char byte = bytes[at++];
        value |= (uint64_t)(byte & 0x7F) << shift;
        if (!(byte & 0x80)) return value > 0xFFFFFFFFULL ? (bad = true, 0) : value;
      }
      bad = true;
      return 0;
    };
    while (at < bytes.size() && !bad) {
      const uint64_t token = varint();
      int64_t difference = 0;
      uint64_t count = 1;
      if (token == 0) {
        count = varint();
        if (count == 0) bad = true;
      } else {
        difference = token % 2 == 0 ? (int64_t)(token / 2) : -(int64_t)((token + 1) / 2);
      }
      if (bad || count > total - weights.size()) {
        bad = true;
        break;
      }
      for (uint64_t i = 0; i < count; i++) {
        const size_t k = weights.size();
        const int64_t value = (k >= stage_len ? weights[k - stage_len] : 0) + difference;
        if (value < INT16_MIN || value > INT16_MAX) {
          bad = true;
          break;
        }
        weights.push_back((int16_t)value);
      }
    }
    if (bad || weights.size() != total) {
      error = std::string(path) + ": " + std::to_string(weights.size()) + " weights read, " +
              std::to_string(total) + " expected, or a malformed number";
      weights.clear();
    }
    return weights;
  }
  while (at + 1 < bytes.size()) {
    const int16_t value = (int16_t)(bytes[at] | bytes[at + 1] << 8);
    at += 2;
    if (value == INT16_MIN) {
      if (at + 1 >= bytes.size()) break;
      const size_t run = bytes[at] | bytes[at + 1] << 8;
      at += 2;
      weights.insert(weights.end(), run, 0);
    } else {
      weights.push_back(value);
    }
    if (weights.size() > total) break;
  }
  if (at != bytes.size() || weights.size() != total) {
    error = std::string(path) + ": " + std::to_string(weights.size()) + " weights read, " +
            std::to_string(total) + " expected";
    weights.clear();
  }
  return weights;
}
