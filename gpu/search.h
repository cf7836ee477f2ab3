// Fixed-depth alpha-beta over iago's evaluation, exact endgame solves, and self-play
// games built from them, for the CPU and the GPU from one source.
//
// The search is a negamax on an explicit stack of frames (no recursion: a GPU thread's
// stack is small and recursion is slow there), fail-soft, with a cheap move order: the
// opponent's evaluation after each move near the root, the opponent's mobility below,
// a fixed square order (corners first, X-squares last) at the last plies.
#pragma once

#include <chrono>

#include "eval.h"
#include "othello.h"

#ifdef __CUDACC__
#define HDF __host__ __device__
#else
#define HDF
#endif

#define MAX_FRAMES 64
// The deepest midgame search and the most empties solved: two frames a ply at most (a
// pass is a frame), within MAX_FRAMES.
#define MAX_DEPTH 30
#define INF_SCORE 30000
#define NO_MOVE 255
#define NOT_SOLVED 255

// Square classes of the fixed order.
#define CORNER_SQUARES 0x8100000000000081ULL
#define X_SQUARES 0x0042000000004200ULL
#define C_SQUARES 0x4281000000008142ULL

// Plies (midgame) or empties (solve) from which moves are sorted by a key, below which
// the fixed square order is used.
#define EVAL_ORDER_DEPTH 3
#define MOBILITY_ORDER_DEPTH 2
#define SOLVE_ORDER_EMPTIES 7

// How often (in nodes, a power of two) a search with a deadline reads the clock.
#define ABORT_CHECK_NODES 4096
// 0: the deadline is read between moves only (a 12-empty solve is short; a 16-empty one
// can last minutes on a busy GPU). A build option, so that a run can time both.
#ifndef DEADLINE_IN_SEARCH
#define DEADLINE_IN_SEARCH 1
#endif

struct Searcher {
  Weights weights;
  unsigned long long nodes;
  // A search still going at `abort_at` (clock_ns; 0: never) returns at once with
  // `aborted` set: a 16-empty solve can last minutes on a busy GPU, so the deadline is
  // read inside the search, every ABORT_CHECK_NODES nodes, not only between moves.
  unsigned long long abort_at;
  bool aborted;
};

// Nanoseconds: the GPU's global timer on the device, a steady clock on the host.
HD unsigned long long clock_ns() {
#ifdef __CUDA_ARCH__
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return (unsigned long long)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

struct Frame {
  u64 player, opponent;
  int alpha, beta, best;
  int8_t depth;       // plies left (midgame search), unused in a solve
  uint8_t count;      // moves in `list`
  uint8_t next;       // the next move of `list` to search
  uint8_t move;       // the move being searched
  uint8_t best_move;
  uint8_t passing;    // waiting for the value of its pass
  uint8_t list[34];
};

// The fixed order: corners, the plain squares, C-squares, X-squares.
HD int order_fixed(u64 moves, uint8_t* list) {
  int n = 0;
  const u64 classes[4] = {moves & CORNER_SQUARES,
                          moves & ~(CORNER_SQUARES | X_SQUARES | C_SQUARES),
                          moves & C_SQUARES, moves & X_SQUARES};
  for (int c = 0; c < 4; c++) {
    u64 m = classes[c];
    while (m) {
      list[n++] = (uint8_t)lowest_bit(m);
      m &= m - 1;
    }
  }
  return n;
}

// Moves sorted by `key` (lowest first, stable: ties keep the fixed order). The key is the
// opponent's evaluation after the move (with_eval) or its move count, a corner taken off.
HD int order_sorted(const Searcher& s, u64 player, u64 opponent, u64 moves, bool with_eval,
                    uint8_t* list) {
  const int n = order_fixed(moves, list);
  int keys[34];
  for (int i = 0; i < n; i++) {
    const int sq = list[i];
    const u64 flipped = flips(sq, player, opponent);
    const u64 p = opponent ^ flipped, o = player ^ flipped ^ (1ULL << sq);
    const int mobility = popcount64(legal_moves(p, o));
    int key = with_eval ? evaluate(s.weights, p, o, mobility) : mobility * 16;
    if ((CORNER_SQUARES >> sq) & 1) key -= with_eval ? 800 : 24;
    keys[i] = key;
  }
  for (int i = 1; i < n; i++) {
    const int key = keys[i];
    const uint8_t sq = list[i];
    int j = i - 1;
    while (j >= 0 && keys[j] > key) {
      keys[j + 1] = keys[j];
      list[j + 1] = list[j];
      j--;
    }
    keys[j + 1] = key;
    list[j + 1] = sq;
  }
  return n;
}

HD void enter(Frame& f, u64 player, u64 opponent, int depth, int alpha, int beta) {
  f.player = player;
  f.opponent = opponent;
  f.depth = (int8_t)depth;
  f.alpha = alpha;
  f.beta = beta;
  f.best = -INF_SCORE;
  f.passing = 0;
  f.best_move = NO_MOVE;
  f.count = 0;
  f.next = 0;
}

// The value for the side to move of a position with one empty square: its move, else the
// opponent's, else neither (in discs).
HD int last_empty_value(u64 player, u64 opponent) {
  const u64 empty = ~(player | opponent);
  const int sq = lowest_bit(empty);
  u64 f = flips(sq, player, opponent);
  if (f) return final_disc_difference(player ^ f ^ empty, opponent ^ f);
  f = flips(sq, opponent, player);
  if (f) return -final_disc_difference(opponent ^ f ^ empty, player ^ f);
  return final_disc_difference(player, opponent);
}

// The value for the side to move of a position with two empty squares, within (alpha,
// beta) fail-soft, without frames: most of a solve's nodes are this near the end.
HD int last_two_value(u64 player, u64 opponent, int alpha, int beta, unsigned long long& nodes) {
  const u64 empty = ~(player | opponent);
  const int squares[2] = {lowest_bit(empty), lowest_bit(empty & (empty - 1))};
  int best = -INF_SCORE;
  for (int i = 0; i < 2; i++) {
    const u64 f = flips(squares[i], player, opponent);
    if (!f) continue;
    nodes++;
    const u64 bit = 1ULL << squares[i];
    const int v = -last_empty_value(opponent ^ f, player ^ f ^ bit);
    if (v > best) {
      best = v;
      if (v >= beta) return v;
    }
  }
  if (best > -INF_SCORE) return best;
  // A pass: the opponent moves, or the game ends.
  nodes++;
  int worst = INF_SCORE;
  for (int i = 0; i < 2; i++) {
    const u64 f = flips(squares[i], opponent, player);
    if (!f) continue;
    nodes++;
    const u64 bit = 1ULL << squares[i];
    const int v = last_empty_value(player ^ f, opponent ^ f ^ bit);
    if (v < worst) {
      worst = v;
      if (v <= alpha) return v;
    }
  }
  return worst < INF_SCORE ? worst : final_disc_difference(player, opponent);
}

// Negamax alpha-beta from (player, opponent). A midgame search (`exact` false) looks
// `depth` plies ahead and scores in hundredths of a disc (the evaluation at its leaves, the
// result times 100 at the end of the game); a solve (`exact`) goes to the end and scores
// in discs. Returns the fail-soft value; `best_move` gets the first move of the best value
// (NO_MOVE when the side to move must pass or the game is over).
HDF int search(Searcher& s, u64 player, u64 opponent, int depth, bool exact, int alpha, int beta,
               int* best_move) {
  Frame stack[MAX_FRAMES];
  int sp = 0;
  enter(stack[0], player, opponent, depth, alpha, beta);
  int value = 0;
  bool returning = false;
  for (;;) {
    Frame& f = stack[sp];
    if (!returning) {
      s.nodes++;
#if DEADLINE_IN_SEARCH
      // The node count paces the clock's reads: no counter of its own to keep in a
      // register through the search.
      if ((s.nodes & (ABORT_CHECK_NODES - 1)) == 0 && s.abort_at && clock_ns() >= s.abort_at) {
        // The caller sees `aborted` and abandons the game: the value is meaningless.
        s.aborted = true;
        if (best_move) *best_move = NO_MOVE;
        return 0;
      }
#endif
      const u64 p = f.player, o = f.opponent;
      const int empties = 64 - popcount64(p | o);
      // The last two empty squares are scored at once, except at the root, which owes a
      // move.
      if (exact && empties <= 2 && sp > 0) {
        value = empties == 2   ? last_two_value(p, o, f.alpha, f.beta, s.nodes)
                : empties == 1 ? last_empty_value(p, o)
                               : final_disc_difference(p, o);
        returning = true;
      } else {
        const u64 moves = legal_moves(p, o);
        if (moves == 0) {
          if (legal_moves(o, p) == 0) {
            value = final_disc_difference(p, o) * (exact ? 1 : 100);
            returning = true;
          } else if (!exact && f.depth <= 0) {
            value = evaluate(s.weights, p, o, 0);
            returning = true;
          } else {
            f.passing = 1;
            enter(stack[++sp], o, p, f.depth, -f.beta, -f.alpha);
            continue;
          }
        } else if (!exact && f.depth <= 0) {
          value = evaluate(s.weights, p, o, popcount64(moves));
          returning = true;
        } else {
          const int left = exact ? empties : f.depth;
          if (!exact && left >= EVAL_ORDER_DEPTH)
            f.count = (uint8_t)order_sorted(s, p, o, moves, true, f.list);
          else if (exact ? left >= SOLVE_ORDER_EMPTIES : left >= MOBILITY_ORDER_DEPTH)
            f.count = (uint8_t)order_sorted(s, p, o, moves, false, f.list);
          else
            f.count = (uint8_t)order_fixed(moves, f.list);
        }
      }
    } else {
      // A child returned `value`, from its side's view.
      const int v = -value;
      returning = false;
      if (f.passing) {
        value = v;
        returning = true;
      } else if (v > f.best) {
        f.best = v;
        f.best_move = f.move;
        if (v >= f.beta) {
          value = v;
          returning = true;
        } else if (v > f.alpha) {
          f.alpha = v;
        }
      }
    }
    if (!returning) {
      if (f.next < f.count) {
        const int sq = f.list[f.next++];
        f.move = (uint8_t)sq;
        const u64 flipped = flips(sq, f.player, f.opponent);
        enter(stack[++sp], f.opponent ^ flipped, f.player ^ flipped ^ (1ULL << sq), f.depth - 1,
              -f.beta, -f.alpha);
        continue;
      }
      value = f.best;
      returning = true;
    }
    // `value` is this frame's: hand it to the parent.
    if (sp == 0) {
      if (best_move) *best_move = f.passing ? NO_MOVE : f.best_move;
      return value;
    }
    sp--;
  }
}

// How self-play games are played.
struct PlayConfig {
  u64 seed;
  int depth;         // midgame search depth (plies)
  int exact;         // positions with at most this many empties are solved
  int random_moves;  // random moves after the opening line
  // Opening lines: line i is moves[i * 60 ...] of length lengths[i]; game g takes line
  // g % count (count 0: none).
  const uint8_t* opening_moves;
  const uint8_t* opening_lengths;
  int opening_count;
  // A game still going at this time (clock_ns) is abandoned, inside a search if need be:
  // its record gets n = ABANDONED. 0: never.
  unsigned long long abort_at;
};

#define ABANDONED 255

// Whether a thread takes another game at `now`: not when its last game (`last` ns; 0
// before its first) says that the next would still be going at the hard deadline, where
// its work would be lost. A game lasts about as long as the thread's last one: the games
// in flight share the device alike.
HD bool worth_starting(const PlayConfig& cfg, unsigned long long now, unsigned long long last) {
  return !cfg.abort_at || now + last + last / 4 < cfg.abort_at;
}

// One game record (IAGOGAM1 fields, moves padded to 60).
struct Record {
  uint8_t n;
  int8_t result;
  uint8_t exact_from;
  uint8_t opening;
  uint8_t moves[60];
};

struct Game {
  u64 player, opponent;
  bool black_to_move;
};

HD void play_move(Game& g, int sq) {
  const u64 flipped = flips(sq, g.player, g.opponent);
  const u64 player = g.opponent ^ flipped;
  g.opponent = g.player ^ flipped ^ (1ULL << sq);
  g.player = player;
  g.black_to_move = !g.black_to_move;
}

HD void pass_move(Game& g) {
  const u64 t = g.player;
  g.player = g.opponent;
  g.opponent = t;
  g.black_to_move = !g.black_to_move;
}

// Plays game `index` of the configuration into `rec`: the opening line, the random moves
// (each drawn from the game's counter-based generator by ply), then searched moves, exact
// from `exact` empties on. Returns false if the solved value and the result disagree (a
// bug: the caller counts them).
HDF bool play_game(Searcher& s, const PlayConfig& cfg, u64 index, Record* rec) {
  s.abort_at = cfg.abort_at;
  s.aborted = false;
  Game g = {START_PLAYER, START_OPPONENT, true};
  int n = 0;
  if (cfg.opening_count > 0) {
    const int line = (int)(index % (u64)cfg.opening_count);
    const uint8_t* moves = cfg.opening_moves + (size_t)line * 60;
    for (int i = 0; i < cfg.opening_lengths[line]; i++) {
      if (legal_moves(g.player, g.opponent) == 0) pass_move(g);
      play_move(g, moves[i]);
      rec->moves[n++] = moves[i];
    }
  }
  for (int r = 0; r < cfg.random_moves;) {
    u64 moves = legal_moves(g.player, g.opponent);
    if (moves == 0) {
      if (legal_moves(g.opponent, g.player) == 0) break;
      pass_move(g);
      continue;
    }
    int k = (int)(game_random(cfg.seed, index, (u64)n) % (u64)popcount64(moves));
    while (k-- > 0) moves &= moves - 1;
    const int sq = lowest_bit(moves);
    play_move(g, sq);
    rec->moves[n++] = (uint8_t)sq;
    r++;
  }
  rec->opening = (uint8_t)n;
  int exact_from = NOT_SOLVED;
  int black_value = 0;
  for (;;) {
    const u64 moves = legal_moves(g.player, g.opponent);
    if (moves == 0) {
      if (legal_moves(g.opponent, g.player) == 0) break;
      pass_move(g);
      continue;
    }
    if (cfg.abort_at && clock_ns() >= cfg.abort_at) {
      rec->n = ABANDONED;
      return true;
    }
    int move = NO_MOVE;
    const int empties = 64 - popcount64(g.player | g.opponent);
    if (empties <= cfg.exact) {
      if (exact_from == NOT_SOLVED) {
        // Null-window searches from a guess (MTD(f)) cost as much as this one full-window
        // search here: without a transposition table each re-searches the whole tree.
        const int v = search(s, g.player, g.opponent, 0, true, -INF_SCORE, INF_SCORE, nullptr);
        if (s.aborted) {
          rec->n = ABANDONED;
          return true;
        }
        exact_from = n;
        black_value = g.black_to_move ? v : -v;
      }
      // Perfect play keeps the value: the first move (in the search's order) that is
      // worth it is found by a null window below it, the other moves left unsearched.
      const int v = g.black_to_move ? black_value : -black_value;
      search(s, g.player, g.opponent, 0, true, v - 1, v, &move);
    } else {
      search(s, g.player, g.opponent, cfg.depth, false, -INF_SCORE, INF_SCORE, &move);
    }
    if (s.aborted) {
      rec->n = ABANDONED;
      return true;
    }
    play_move(g, move);
    rec->moves[n++] = (uint8_t)move;
  }
  const int result = g.black_to_move ? final_disc_difference(g.player, g.opponent)
                                     : -final_disc_difference(g.player, g.opponent);
  rec->n = (uint8_t)n;
  rec->result = (int8_t)result;
  rec->exact_from = (uint8_t)exact_from;
  return exact_from == NOT_SOLVED || result == black_value;
}

// Leaves `depth` plies below (player, opponent), iago's convention: a pass is a ply, a
// game that ends early is one leaf (`passed`: the ply that led here was a pass). An
// explicit stack, as in `search`.
HDF unsigned long long perft(u64 player, u64 opponent, int depth, bool passed) {
  struct PerftFrame {
    u64 player, opponent, moves;
    int depth;
  };
  PerftFrame stack[MAX_FRAMES];
  int sp = -1;
  unsigned long long leaves = 0;
  // Visits a node: counts it if its leaves are known at once, else pushes it.
  auto visit = [&](u64 p, u64 o, int d, bool passed) {
    for (;;) {
      if (d == 0) {
        leaves++;
        return;
      }
      const u64 moves = legal_moves(p, o);
      if (moves == 0) {
        if (d == 1 || passed || legal_moves(o, p) == 0) {
          leaves++;
          return;
        }
        const u64 t = p;
        p = o;
        o = t;
        d--;
        passed = true;
        continue;
      }
      if (d == 1) {
        leaves += popcount64(moves);
        return;
      }
      sp++;
      stack[sp].player = p;
      stack[sp].opponent = o;
      stack[sp].moves = moves;
      stack[sp].depth = d;
      return;
    }
  };
  visit(player, opponent, depth, passed);
  while (sp >= 0) {
    PerftFrame& f = stack[sp];
    if (f.moves == 0) {
      sp--;
      continue;
    }
    const int sq = lowest_bit(f.moves);
    f.moves &= f.moves - 1;
    const u64 flipped = flips(sq, f.player, f.opponent);
    visit(f.opponent ^ flipped, f.player ^ flipped ^ (1ULL << sq), f.depth - 1, false);
  }
  return leaves;
}
