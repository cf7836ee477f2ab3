//! The 24 points, their lines and neighbours, as 24-bit sets.
//!
//! Point `ring * 8 + cell` follows the seed's model: ring 0 is the outer square, cells
//! 0..7 run clockwise from each ring's top-left corner. Even cells are corners, odd cells
//! side middles, which are also joined to the same cell of the neighbouring rings.

/// A set of points, bit `p` for point `p`.
pub type Points = u32;

pub const POINTS: usize = 24;
pub const ALL: Points = (1 << POINTS) - 1;

/// Standard coordinates of the points on the 7x7 grid (a7 top left, a1 bottom left).
pub const NAMES: [&str; POINTS] = [
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4", // outer ring
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4", // middle ring
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4", // inner ring
];

/// The point called `name` (`d6`, case-insensitive).
pub fn point_by_name(name: &str) -> Option<u8> {
    let lower = name.to_ascii_lowercase();
    NAMES.iter().position(|&n| n == lower).map(|p| p as u8)
}

const fn point(ring: usize, cell: usize) -> usize {
    ring * 8 + (cell % 8)
}

const fn make_neighbours() -> [Points; POINTS] {
    let mut table = [0; POINTS];
    let mut ring = 0;
    while ring < 3 {
        let mut cell = 0;
        while cell < 8 {
            let p = point(ring, cell);
            table[p] |= 1 << point(ring, cell + 1);
            table[p] |= 1 << point(ring, cell + 7);
            if cell % 2 == 1 {
                if ring > 0 {
                    table[p] |= 1 << point(ring - 1, cell);
                }
                if ring < 2 {
                    table[p] |= 1 << point(ring + 1, cell);
                }
            }
            cell += 1;
        }
        ring += 1;
    }
    table
}

const fn make_mills() -> [Points; 16] {
    let mut mills = [0; 16];
    let mut n = 0;
    let mut ring = 0;
    while ring < 3 {
        let mut corner = 0;
        while corner < 8 {
            mills[n] = (1 << point(ring, corner))
                | (1 << point(ring, corner + 1))
                | (1 << point(ring, corner + 2));
            n += 1;
            corner += 2;
        }
        ring += 1;
    }
    let mut cell = 1;
    while cell < 8 {
        mills[n] = (1 << point(0, cell)) | (1 << point(1, cell)) | (1 << point(2, cell));
        n += 1;
        cell += 2;
    }
    mills
}

const fn make_mills_of() -> [[Points; 2]; POINTS] {
    let mut table = [[0; 2]; POINTS];
    let mut count = [0usize; POINTS];
    let mut m = 0;
    while m < 16 {
        let mut p = 0;
        while p < POINTS {
            if MILLS[m] & (1 << p) != 0 {
                table[p][count[p]] = MILLS[m];
                count[p] += 1;
            }
            p += 1;
        }
        m += 1;
    }
    table
}

/// The points one slide away from each point.
pub const NEIGHBOURS: [Points; POINTS] = make_neighbours();
/// The 16 lines of three points.
pub const MILLS: [Points; 16] = make_mills();
/// The two lines through each point (every point lies on exactly two).
pub const MILLS_OF: [[Points; 2]; POINTS] = make_mills_of();

/// The stones of `stones` that stand in one of their mills.
pub fn in_mills(stones: Points) -> Points {
    MILLS
        .iter()
        .filter(|&&m| stones & m == m)
        .fold(0, |acc, &m| acc | m)
}

/// How many mills of `stones` pass through `p`.
pub fn mills_through(stones: Points, p: usize) -> u32 {
    MILLS_OF[p].iter().filter(|&&m| stones & m == m).count() as u32
}

/// Iterates over the points of a set, lowest first.
pub fn points(mut set: Points) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let p = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(p)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_matches_the_standard_board() {
        // 32 lines between neighbours, each counted from both ends.
        let degree: u32 = NEIGHBOURS.iter().map(|n| n.count_ones()).sum();
        assert_eq!(degree, 64);
        for p in 0..POINTS {
            for q in points(NEIGHBOURS[p]) {
                assert!(NEIGHBOURS[q] & (1 << p) != 0, "{} {}", NAMES[p], NAMES[q]);
            }
            assert_eq!(MILLS_OF[p].iter().filter(|&&m| m != 0).count(), 2);
        }
        let d6 = point_by_name("d6").unwrap() as usize;
        let names: Vec<_> = points(NEIGHBOURS[d6]).map(|q| NAMES[q]).collect();
        assert_eq!(names, ["d7", "b6", "f6", "d5"]);
        let a7 = point_by_name("A7").unwrap() as usize;
        assert_eq!(NEIGHBOURS[a7], (1 << 1) | (1 << 7));
        assert_eq!(point_by_name("h1"), None);
    }
}
