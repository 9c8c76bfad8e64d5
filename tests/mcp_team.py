"Functions the tests of serving a team serve: names that aren't UTF-8, a slow call, and a call that records each time it runs"
import os, time

def odd_name()->str:
    "A file name as os.listdir gives it when its bytes aren't UTF-8"
    return 'caf' + b'\xe9'.decode('utf-8', 'surrogateescape')

def odd_names():
    "The same, in a list with no return annotation"
    return {'names': ['ok', odd_name()]}

def fail_oddly():
    "An exception whose message holds the name"
    raise FileNotFoundError(odd_name())

def slow(s:float, # Seconds to take
        )->float:
    "Sleep `s` seconds"
    time.sleep(s)
    return s

def record(key:str, # The call's own key
           s:float=0, # Seconds to take before recording
          )->int:
    "Append `key` to the file $FNCALL_TEST_LOG once the call has run (after `s` seconds); the pid of the server that ran it"
    time.sleep(s)
    with open(os.environ['FNCALL_TEST_LOG'], 'a') as f: f.write(f'{key} {os.getpid()}\n')
    return os.getpid()
