// iago's pattern evaluation, bit for bit (crates/core/src/eval/features.rs and pattern.rs).
//
// The same 11 patterns and their 46 distinct symmetric placements in the same order, the
// same ternary index of each placement (the squares of the pattern in increasing bit order
// are the digits, 1 for the side to move's disc, 2 for the opponent's), then the two
// mobility features and the parity of the empties: 49 weights a position, from the weight
// set of the position's stage (discs on the board, 4 a stage, 15 stages), summed in
// hundredths of a disc and clamped to +-6399.
//
// A placement reads its pattern on the board seen through a symmetry; here each placement
// is stored as the list of original squares its digits read, so that the same loop runs
// on the CPU and the GPU without bit-extract instructions.
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
#define DISCS_PER_STAGE 4
#define STAGES 15
#define ACTIVE_FEATURES (PLACEMENT_COUNT + 3)
// Largest evaluation: less than any won game's score.
#define EVAL_LIMIT (64 * 100 - 1)

// Everything the evaluation reads besides the weights: small, read by every thread alike.
struct EvalLayout {
  // Digit d of placement k reads square squares[k][d] (0xFF past the last digit).
  uint8_t squares[PLACEMENT_COUNT][MAX_PATTERN_SQUARES];
  uint8_t digits[PLACEMENT_COUNT];
  uint32_t offset[PLACEMENT_COUNT];
  uint32_t mobility_offset, opponent_mobility_offset, parity_offset, stage_len;
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
    (1ULL << 3) | (1ULL << 12) | (1ULL << 21) | (1ULL << 30) | (1ULL << 39),
    (1ULL << 4) | (1ULL << 13) | (1ULL << 22) | (1ULL << 31),          // diagonal-4
    0xFFULL << 8,                                                      // line-2
    0xFFULL << 16,                                                     // line-3
    0xFFULL << 24,                                                     // line-4
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
      layout.offset[n] = offset;
      n++;
    }
    offset += power_of_3(popcount64(mask));
  }
  layout.mobility_offset = offset;
  layout.opponent_mobility_offset = offset + MAX_MOBILITY + 1;
  layout.parity_offset = layout.opponent_mobility_offset + MAX_MOBILITY + 1;
  layout.stage_len = layout.parity_offset + 2;
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

// The stage of a position with `discs` discs on the board.
HD int stage_of(int discs) {
  const int stage = (discs < 4 ? 0 : discs - 4) / DISCS_PER_STAGE;
  return stage < STAGES - 1 ? stage : STAGES - 1;
}

HD int16_t load_weight(const int16_t* w) {
#ifdef __CUDA_ARCH__
  return __ldg(w);
#else
  return *w;
#endif
}

// The layout every evaluation reads: in constant memory on the GPU (each warp's threads
// read the same entries together), a plain global on the CPU. Set by `install_layout`.
#ifdef __CUDACC__
__constant__ EvalLayout c_layout;
#endif
static EvalLayout h_layout;

HD const EvalLayout& the_layout() {
#ifdef __CUDA_ARCH__
  return c_layout;
#else
  return h_layout;
#endif
}

// Writes the weight index (within the stage) of each of the 49 active features, in
// iago's order: the placements, the two mobilities, the parity.
HD void feature_indices(u64 player, u64 opponent, uint32_t* out) {
  const EvalLayout& layout = the_layout();
  for (int k = 0; k < PLACEMENT_COUNT; k++) {
    uint32_t index = 0;
    for (int d = layout.digits[k] - 1; d >= 0; d--) {
      const int sq = layout.squares[k][d];
      index = index * 3 + (uint32_t)((player >> sq & 1) | ((opponent >> sq & 1) << 1));
    }
    out[k] = layout.offset[k] + index;
  }
  int mobility = popcount64(legal_moves(player, opponent));
  int opponent_mobility = popcount64(legal_moves(opponent, player));
  out[PLACEMENT_COUNT] = layout.mobility_offset + (mobility < MAX_MOBILITY ? mobility : MAX_MOBILITY);
  out[PLACEMENT_COUNT + 1] = layout.opponent_mobility_offset +
                             (opponent_mobility < MAX_MOBILITY ? opponent_mobility : MAX_MOBILITY);
  out[PLACEMENT_COUNT + 2] = layout.parity_offset + (popcount64(~(player | opponent)) & 1);
}

// The pattern evaluation for the side to move, in hundredths of a disc. `weights` holds
// all stages, stage after stage. `mobility` is the side to move's move count if known.
HD int evaluate(const int16_t* weights, u64 player, u64 opponent, int mobility) {
  const EvalLayout& layout = the_layout();
  const int discs = popcount64(player | opponent);
  const int16_t* w = weights + (size_t)stage_of(discs) * layout.stage_len;
  int sum = 0;
  for (int k = 0; k < PLACEMENT_COUNT; k++) {
    uint32_t index = 0;
    for (int d = layout.digits[k] - 1; d >= 0; d--) {
      const int sq = layout.squares[k][d];
      index = index * 3 + (uint32_t)((player >> sq & 1) | ((opponent >> sq & 1) << 1));
    }
    sum += load_weight(w + layout.offset[k] + index);
  }
  if (mobility < 0) mobility = popcount64(legal_moves(player, opponent));
  const int opponent_mobility = popcount64(legal_moves(opponent, player));
  sum += load_weight(w + layout.mobility_offset + (mobility < MAX_MOBILITY ? mobility : MAX_MOBILITY));
  sum += load_weight(w + layout.opponent_mobility_offset +
                     (opponent_mobility < MAX_MOBILITY ? opponent_mobility : MAX_MOBILITY));
  sum += load_weight(w + layout.parity_offset + ((64 - discs) & 1));
  return sum < -EVAL_LIMIT ? -EVAL_LIMIT : sum > EVAL_LIMIT ? EVAL_LIMIT : sum;
}

// Reads an IAGOPAT1 weight file (pattern.rs): the magic, the stage count and the weights a
// stage (u32 each), then the weights as i16, where -32768 is followed by a u16 count of
// zeros. Returns an empty vector and sets `error` when the file does not fit the layout.
inline std::vector<int16_t> read_weights(const char* path, const EvalLayout& layout,
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
  if (bytes.size() < 16 || memcmp(bytes.data(), "IAGOPAT1", 8) != 0) {
    error = std::string(path) + ": not an IAGOPAT1 file";
    return weights;
  }
  auto word = [&](size_t at) {
    return (uint32_t)bytes[at] | (uint32_t)bytes[at + 1] << 8 | (uint32_t)bytes[at + 2] << 16 |
           (uint32_t)bytes[at + 3] << 24;
  };
  const uint32_t stages = word(8), stage_len = word(12);
  if (stages != STAGES || stage_len != layout.stage_len) {
    error = std::string(path) + ": " + std::to_string(stages) + " stages of " +
            std::to_string(stage_len) + " weights, the evaluation needs " + std::to_string(STAGES) +
            " of " + std::to_string(layout.stage_len);
    return weights;
  }
  const size_t total = (size_t)stages * stage_len;
  weights.reserve(total);
  size_t at = 16;
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
