/*
 * memcpy, memmove and memset by words. picolibc is built for size and moves
 * one byte per loop; on this core every load and store costs about four
 * cycles, so the byte loops made clearing a session record or copying a frame
 * the slowest part of many commands. These move a word per access where both
 * pointers allow it (equal alignment mod 4), bytes otherwise, and replace
 * picolibc's (the linker takes these first).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *memset(void *dst, int c, size_t n) {
    uint8_t *d = dst;
    while (n && ((uintptr_t)d & 3u)) {
        *d++ = (uint8_t)c;
        n--;
    }
    uint32_t w = 0x01010101u * (uint8_t)c;
    for (; n >= 16; n -= 16, d += 16) {
        ((uint32_t *)d)[0] = w;
        ((uint32_t *)d)[1] = w;
        ((uint32_t *)d)[2] = w;
        ((uint32_t *)d)[3] = w;
    }
    for (; n >= 4; n -= 4, d += 4) *(uint32_t *)d = w;
    while (n--) *d++ = (uint8_t)c;
    return dst;
}

/* Forward copy; word by word when dst and src share their alignment. */
static void copy_up(uint8_t *d, const uint8_t *s, size_t n) {
    if ((((uintptr_t)d ^ (uintptr_t)s) & 3u) == 0) {
        while (n && ((uintptr_t)d & 3u)) {
            *d++ = *s++;
            n--;
        }
        for (; n >= 16; n -= 16, d += 16, s += 16) {
            uint32_t a = ((const uint32_t *)s)[0], b = ((const uint32_t *)s)[1];
            uint32_t e = ((const uint32_t *)s)[2], f = ((const uint32_t *)s)[3];
            ((uint32_t *)d)[0] = a;
            ((uint32_t *)d)[1] = b;
            ((uint32_t *)d)[2] = e;
            ((uint32_t *)d)[3] = f;
        }
        for (; n >= 4; n -= 4, d += 4, s += 4) *(uint32_t *)d = *(const uint32_t *)s;
    }
    while (n--) *d++ = *s++;
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
    copy_up(dst, src, n);
    return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (d <= s || d >= s + n) {
        copy_up(d, s, n);
        return dst;
    }
    /* overlapping with dst above src: from the end down */
    d += n;
    s += n;
    if ((((uintptr_t)d ^ (uintptr_t)s) & 3u) == 0) {
        while (n && ((uintptr_t)d & 3u)) {
            *--d = *--s;
            n--;
        }
        for (; n >= 4; n -= 4) {
            d -= 4;
            s -= 4;
            *(uint32_t *)d = *(const uint32_t *)s;
        }
    }
    while (n--) *--d = *--s;
    return dst;
}
