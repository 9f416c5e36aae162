/*
** particles.h — particles' slot (layout: aos_soa.h's) and the velocity update's constants.
*/
#ifndef WARPLAB_PARTICLES_H
#define WARPLAB_PARTICLES_H

#include "aos_soa.h"   /* LAYOUT_AOS, LAYOUT_SOA, SOA_PITCH */

enum { PARTICLES_LAYOUT = 2 };
/* The chapter's velocity update: v += a * dt with these a and dt. */
#define PARTICLES_AX 0.1f
#define PARTICLES_AY 0.2f
#define PARTICLES_AZ 0.3f
#define PARTICLES_DT 0.01f

#endif
