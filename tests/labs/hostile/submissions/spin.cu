// spin.cu — a student's my_transpose (exercises, step 9) whose every lane
// loops for ever: the emulator runs it until the grader's deadline stops it.
extern "C" __global__ void my_transpose(const float *in, float *out, int width, int height)
{
    volatile int forever = 1;
    while (forever)
        out[0] = in[0];
}
