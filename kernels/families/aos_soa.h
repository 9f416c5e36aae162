/*
** aos_soa.h — aos_soa's slots, choices and buffers; the layouts and SOA_PITCH, particles' too.
*/
#ifndef WARPLAB_AOS_SOA_H
#define WARPLAB_AOS_SOA_H

enum { AOS_SOA_LAYOUT = 2, AOS_SOA_FIELDS = 3, AOS_SOA_ACCESS = 4 };
enum { AOS_SOA_READ, AOS_SOA_WRITE, AOS_SOA_UPDATE };   /* aos_soa's `access` choices */
enum { AOS_SOA_STRUCTS_IN, AOS_SOA_A, AOS_SOA_B, AOS_SOA_STRUCTS, AOS_SOA_OUT };   /* its buffers */
enum { LAYOUT_AOS, LAYOUT_SOA };   /* the `layout` choices of aos_soa and particles */
/* Floats between the arrays of a struct of arrays kept in one buffer: n rounded
   up to 64 floats, so that each array starts 256-byte aligned as cudaMalloc's would. */
#define SOA_PITCH(n) (((n) + 63) / 64 * 64)

#endif
