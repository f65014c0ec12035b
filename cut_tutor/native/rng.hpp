// CPython's random.Random (Mersenne Twister MT19937 and the Python-level methods built on it), reproduced
// exactly so the compiled core draws the same numbers as the Python path for a seed (Lib/random.py and
// Modules/_randommodule.c of CPython 3.11/3.12). Every method below names the CPython code it mirrors.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <stdexcept>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sha512.hpp"

namespace cut_tutor {

class Random {
public:
    static constexpr int N = 624;
    static constexpr int M = 397;

    // What random.Random().getstate() holds: (3, (624 words..., index), gauss_next).
    struct State {
        std::array<std::uint32_t, N> words{};
        int index = N;
        std::optional<double> gauss_next;
    };

    // Seeded like random.Random(seed) from the 32-bit words of abs(seed), least significant first
    // (_randommodule.c random_seed: an empty key becomes [0]).
    explicit Random(const std::vector<std::uint32_t>& key) { seed(key); }
    explicit Random(const State& state) { setstate(state); }

    void seed(const std::vector<std::uint32_t>& key) {
        if (key.empty()) {
            init_by_array(std::vector<std::uint32_t>{0});
        } else {
            init_by_array(key);
        }
        gauss_next_.reset();
    }

    // The words of abs(seed) for a seed that fits 64 bits: seed_key(seed) then Random(key).
    static std::vector<std::uint32_t> seed_key(std::int64_t seed) {
        std::uint64_t magnitude = seed < 0 ? ~static_cast<std::uint64_t>(seed) + 1 : static_cast<std::uint64_t>(seed);
        std::vector<std::uint32_t> key{static_cast<std::uint32_t>(magnitude)};
        if (magnitude >> 32) key.push_back(static_cast<std::uint32_t>(magnitude >> 32));
        return key;
    }

    // The words of the int random.Random.seed makes of a str seed (version 2, Lib/random.py): the UTF-8 bytes
    // followed by their SHA-512 digest, read as one big-endian number.
    static std::vector<std::uint32_t> text_key(const std::string& utf8) {
        std::string bytes = utf8;
        for (unsigned char c : sha512(utf8)) bytes.push_back(static_cast<char>(c));
        std::vector<std::uint32_t> key((bytes.size() + 3) / 4);
        for (std::size_t e = 0; e < bytes.size(); e++) {  // e: the byte's place from the least significant end
            key[e / 4] |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[bytes.size() - 1 - e]))
                          << (8 * (e % 4));
        }
        while (!key.empty() && key.back() == 0) key.pop_back();  // the number's own words, as _randommodule.c
        return key;
    }

    State getstate() const {
        State state;
        state.words = mt_;
        state.index = index_;
        state.gauss_next = gauss_next_;
        return state;
    }

    void setstate(const State& state) {
        if (state.index < 0 || state.index > N) throw std::invalid_argument("invalid state: index out of range");
        mt_ = state.words;
        index_ = state.index;
        gauss_next_ = state.gauss_next;
    }

    // genrand_uint32 of _randommodule.c.
    std::uint32_t genrand_uint32() {
        static constexpr std::uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
        constexpr std::uint32_t upper = 0x80000000U;
        constexpr std::uint32_t lower = 0x7fffffffU;
        std::uint32_t y;
        if (index_ >= N) {
            int kk = 0;
            for (; kk < N - M; kk++) {
                y = (mt_[kk] & upper) | (mt_[kk + 1] & lower);
                mt_[kk] = mt_[kk + M] ^ (y >> 1) ^ mag01[y & 0x1U];
            }
            for (; kk < N - 1; kk++) {
                y = (mt_[kk] & upper) | (mt_[kk + 1] & lower);
                mt_[kk] = mt_[kk + (M - N)] ^ (y >> 1) ^ mag01[y & 0x1U];
            }
            y = (mt_[N - 1] & upper) | (mt_[0] & lower);
            mt_[N - 1] = mt_[M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
            index_ = 0;
        }
        y = mt_[index_++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        return y;
    }

    // random_random: a float in [0, 1) from 53 random bits.
    double random() {
        std::uint32_t a = genrand_uint32() >> 5;
        std::uint32_t b = genrand_uint32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

    // _random_Random_getrandbits_impl for any k >= 0: the 32-bit words of the result, least significant first
    // (the last word keeps its top k % 32 bits when k is not a multiple of 32).
    std::vector<std::uint32_t> getrandbits_words(std::size_t k) {
        std::vector<std::uint32_t> words;
        if (k == 0) return words;
        if (k <= 32) {
            words.push_back(genrand_uint32() >> (32 - k));
            return words;
        }
        words.reserve((k - 1) / 32 + 1);
        for (std::size_t left = k; left > 0; left = left > 32 ? left - 32 : 0) {
            std::uint32_t r = genrand_uint32();
            if (left < 32) r >>= (32 - left);
            words.push_back(r);
        }
        return words;
    }

    // getrandbits(k) for 0 <= k <= 64, as one number.
    std::uint64_t getrandbits(int k) {
        if (k < 0 || k > 64) throw std::out_of_range("getrandbits: k must be in 0..64 here");
        if (k == 0) return 0;
        if (k <= 32) return genrand_uint32() >> (32 - k);
        std::uint64_t low = genrand_uint32();
        std::uint64_t high = genrand_uint32();
        if (k < 64) high >>= (64 - k);
        return low | (high << 32);
    }

    // Random._randbelow_with_getrandbits: rejection on k = n.bit_length() bits. Defined for n > 0.
    std::uint64_t randbelow(std::uint64_t n) {
        if (n == 0) throw std::invalid_argument("randbelow: n must be positive");
        const int k = 64 - __builtin_clzll(n);  // n.bit_length(): n > 0 here
        std::uint64_t r = getrandbits(k);
        while (r >= n) r = getrandbits(k);
        return r;
    }

    // Random.randrange(n): a number in [0, n).
    std::uint64_t randrange(std::uint64_t n) {
        if (n == 0) throw std::invalid_argument("empty range for randrange()");
        return randbelow(n);
    }

    // Random.shuffle: Fisher-Yates from the end, one randbelow(i + 1) per position.
    template <class T>
    void shuffle(std::vector<T>& x) {
        for (std::size_t i = x.size(); i-- > 1;) {
            std::size_t j = static_cast<std::size_t>(randbelow(i + 1));
            std::swap(x[i], x[j]);
        }
    }

    // The index Random.choice picks from a sequence of n items.
    std::size_t choice_index(std::size_t n) {
        if (n == 0) throw std::out_of_range("Cannot choose from an empty sequence");
        return static_cast<std::size_t>(randbelow(n));
    }

    template <class T>
    const T& choice(const std::vector<T>& seq) {
        return seq[choice_index(seq.size())];
    }

    // The positions Random.sample(population, k) picks from n items, in selection order: a pool for small
    // populations, a set of picks otherwise, with CPython's threshold between the two.
    std::vector<std::size_t> sample_indices(std::size_t n, std::size_t k) {
        if (k > n) throw std::invalid_argument("Sample larger than population or is negative");
        std::vector<std::size_t> result(k);
        std::uint64_t setsize = 21;
        if (k > 5) {
            // 4 ** ceil(log(k * 3, 4)), as math.log computes it: log(x) / log(4)
            int exponent = static_cast<int>(std::ceil(std::log(static_cast<double>(k) * 3.0) / std::log(4.0)));
            setsize = exponent >= 31 ? UINT64_MAX : setsize + (std::uint64_t{1} << (2 * exponent));
        }
        if (n <= setsize) {
            std::vector<std::size_t> pool(n);
            for (std::size_t i = 0; i < n; i++) pool[i] = i;
            for (std::size_t i = 0; i < k; i++) {
                std::size_t j = static_cast<std::size_t>(randbelow(n - i));
                result[i] = pool[j];
                pool[j] = pool[n - i - 1];
            }
        } else {
            std::unordered_set<std::size_t> selected;
            for (std::size_t i = 0; i < k; i++) {
                std::size_t j = static_cast<std::size_t>(randbelow(n));
                while (selected.count(j)) j = static_cast<std::size_t>(randbelow(n));
                selected.insert(j);
                result[i] = j;
            }
        }
        return result;
    }

    template <class T>
    std::vector<T> sample(const std::vector<T>& population, std::size_t k) {
        std::vector<T> result;
        result.reserve(k);
        for (std::size_t i : sample_indices(population.size(), k)) result.push_back(population[i]);
        return result;
    }

    // Random.gauss: Box-Muller, the second value of a pair kept for the next call.
    double gauss(double mu = 0.0, double sigma = 1.0) {
        std::optional<double> z = gauss_next_;
        gauss_next_.reset();
        if (!z) {
            double x2pi = random() * (2.0 * 3.141592653589793);
            double g2rad = std::sqrt(-2.0 * std::log(1.0 - random()));
            z = std::cos(x2pi) * g2rad;
            gauss_next_ = std::sin(x2pi) * g2rad;
        }
        return mu + *z * sigma;
    }

private:
    std::array<std::uint32_t, N> mt_{};
    int index_ = N + 1;
    std::optional<double> gauss_next_;

    // init_genrand of _randommodule.c.
    void init_genrand(std::uint32_t s) {
        mt_[0] = s;
        for (int i = 1; i < N; i++) mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
        index_ = N;
    }

    // init_by_array of _randommodule.c.
    void init_by_array(const std::vector<std::uint32_t>& key) {
        init_genrand(19650218U);
        int i = 1;
        std::size_t j = 0;
        std::size_t length = key.size();
        for (std::size_t k = N > length ? N : length; k; k--) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<std::uint32_t>(j);
            i++;
            j++;
            if (i >= N) {
                mt_[0] = mt_[N - 1];
                i = 1;
            }
            if (j >= length) j = 0;
        }
        for (int k = N - 1; k; k--) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - static_cast<std::uint32_t>(i);
            i++;
            if (i >= N) {
                mt_[0] = mt_[N - 1];
                i = 1;
            }
        }
        mt_[0] = 0x80000000U;
    }
};

}  // namespace cut_tutor
