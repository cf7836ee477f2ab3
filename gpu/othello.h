// Othello rules on 64-bit boards, for the CPU and the GPU from one source.
//
// Bit numbering is iago's: bit 8 * row + column, a1 = 0, h1 = 7, a2 = 8, h8 = 63. A
// position is (player, opponent): the side to move's discs and the other side's.
#pragma once

#include <stdint.h>

#ifdef __CUDACC__
#define HD __host__ __device__ __forceinline__
#else
#define HD inline
#endif

typedef uint64_t u64;

HD int popcount64(u64 x) {
#ifdef __CUDA_ARCH__
  return __popcll(x);
#else
  return __builtin_popcountll(x);
#endif
}

// Index of the lowest set bit; x must not be 0.
HD int lowest_bit(u64 x) {
#ifdef __CUDA_ARCH__
  return __ffsll((long long)x) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

// Squares not on the a or h file: a sideways or diagonal shift must not wrap through them.
#define NOT_EDGE_FILES 0x7E7E7E7E7E7E7E7EULL

// Squares one step beyond a run of `mask` discs that starts next to a `player` disc,
// both ways along one line orientation (the doubling fill: runs are at most six long).
HD u64 candidates(u64 player, u64 mask, int shift) {
  u64 up = mask & (player << shift);
  u64 down = mask & (player >> shift);
  const u64 pair_up = mask & (mask << shift);
  const u64 pair_down = pair_up >> shift;
  up |= mask & (up << shift);
  down |= mask & (down >> shift);
  up |= pair_up & (up << (2 * shift));
  down |= pair_down & (down >> (2 * shift));
  up |= pair_up & (up << (2 * shift));
  down |= pair_down & (down >> (2 * shift));
  return (up << shift) | (down >> shift);
}

// The squares where `player` may move.
HD u64 legal_moves(u64 player, u64 opponent) {
  const u64 inner = opponent & NOT_EDGE_FILES;
  const u64 moves = candidates(player, inner, 1) | candidates(player, opponent, 8) |
                    candidates(player, inner, 7) | candidates(player, inner, 9);
  return moves & ~(player | opponent);
}

// The discs of one direction flipped by a disc placed on `move`: the run of `mask` discs
// leaving the move that a `player` disc closes. `up` picks the direction of the shift.
HD u64 flips_line(u64 move, u64 player, u64 mask, int shift, bool up) {
  u64 run, pair, closed;
  if (up) {
    run = mask & (move << shift);
    run |= mask & (run << shift);
    pair = mask & (mask << shift);
    run |= pair & (run << (2 * shift));
    run |= pair & (run << (2 * shift));
    closed = (run << shift) & player;
  } else {
    run = mask & (move >> shift);
    run |= mask & (run >> shift);
    pair = mask & (mask >> shift);
    run |= pair & (run >> (2 * shift));
    run |= pair & (run >> (2 * shift));
    closed = (run >> shift) & player;
  }
  return closed ? run : 0;
}

// The discs flipped when `player` plays on the empty `square`; 0 when the move is illegal.
HD u64 flips(int square, u64 player, u64 opponent) {
  const u64 move = 1ULL << square;
  const u64 inner = opponent & NOT_EDGE_FILES;
  return flips_line(move, player, inner, 1, true) | flips_line(move, player, inner, 1, false) |
         flips_line(move, player, opponent, 8, true) |
         flips_line(move, player, opponent, 8, false) |
         flips_line(move, player, inner, 7, true) | flips_line(move, player, inner, 7, false) |
         flips_line(move, player, inner, 9, true) | flips_line(move, player, inner, 9, false);
}

// Disc difference for the side to move at the end, the empties going to the winner
// (iago's final_disc_difference).
HD int final_disc_difference(u64 player, u64 opponent) {
  const int mine = popcount64(player), theirs = popcount64(opponent);
  const int empties = 64 - mine - theirs;
  if (mine > theirs) return mine - theirs + empties;
  if (mine < theirs) return mine - theirs - empties;
  return 0;
}

// The start position: Black (to move) on d5 and e4, White on d4 and e5.
#define START_PLAYER ((1ULL << 35) | (1ULL << 28))
#define START_OPPONENT ((1ULL << 27) | (1ULL << 36))

// SplitMix64's finaliser (iago's mix64): every input bit changes half the output bits.
HD u64 mix64(u64 x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// The counter-based generator of self-play: one independent number for each (seed, game,
// ply), so that a game is a pure function of its seed and index.
HD u64 game_random(u64 seed, u64 game, u64 ply) {
  return mix64(mix64(mix64(seed + 0x9E3779B97F4A7C15ULL) ^ game) + ply * 0x9E3779B97F4A7C15ULL);
}
